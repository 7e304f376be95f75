// One lazy chunk per page (architecture: "one lazy chunk per page"), each load bounded by the
// chunk-load timeout of spec §9; a chunk that cannot be loaded shows a retry message instead. The
// first page (/info, where every session starts) is part of the shell: it renders with the shell's
// first render, without a chunk of its own to fetch and wait for.

import type { ComponentType } from 'preact';
import lazy from 'preact-iso/lazy';
import type { Namespaces } from '../i18n/i18n-types.ts';
import { loadTexts } from '../i18n/translate.ts';
import InfoPage from '../pages/info.tsx';
import { type PageId, pageOf } from '../pages.ts';
import { ChunkFailed } from '../shell/chunk-failed.tsx';
import { ensureModel } from '../state/model.ts';
import { hashPath } from './hash.tsx';

export const CHUNK_TIMEOUT_MS = 120_000; // spec §9: chunk load timeout 120 s

type Loader = () => Promise<{ default: ComponentType }>;

export function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('chunk load timeout')), ms);
    p.then(
      (v) => {
        clearTimeout(t);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(t);
        reject(e);
      },
    );
  });
}

/**
 * A page's chunk, loaded together with the parts of the dictionary it needs (`texts`); a page with
 * settings fields (the field texts) also with the configuration model, which its validation markers
 * need (after /info the model is loaded when the browser is idle: web/state/console-data.ts), and
 * with the settings pages' styles.
 */
export const page = (load: Loader, texts: readonly Namespaces[] = []) =>
  lazy(() =>
    withTimeout(
      Promise.all([load(), loadTexts(texts), texts.includes('fields') ? Promise.all([ensureModel(), import('../styles/forms-sheet.ts')]) : undefined]).then(
        ([m]) => m,
      ),
      CHUNK_TIMEOUT_MS,
    ).catch((e: unknown) => {
      console.error('page chunk failed to load', e);
      return { default: ChunkFailed };
    }),
  );

/**
 * The parts of the texts every page but the information page may need (field labels, helps and
 * choices, the messages of refused input; the page blocks some pages share, such as the link states
 * or the restriction editor), loaded with the first such page or once the first page shows and the
 * browser is idle (web/app.tsx), whichever comes first: the first load carries only what the
 * information page shows. A page's own part (`users`, `tls` …) comes with its page.
 */
export const TEXTS = ['fields', 'form', 'errors', 'confirm', 'service', 'certs', 'com', 'port', 'rest', 'ftpStatus', 'graphs', 'backup', 'firmware'] as const;

/** The component of every page of spec §2, with the parts of the texts it needs. */
export const PAGE_COMPONENTS: Record<PageId, ComponentType> = {
  info: InfoPage,
  health: page(() => import('../pages/health.tsx'), ['health', 'form']),
  com: page(() => import('../pages/com.tsx'), TEXTS),
  port: page(() => import('../pages/port.tsx'), TEXTS),
  wizard_com: page(() => import('../pages/wizard-com.tsx'), [...TEXTS, 'wizard']),
  mqtt: page(() => import('../pages/mqtt.tsx'), [...TEXTS, 'serviceStatus']),
  sql: page(() => import('../pages/sql.tsx'), [...TEXTS, 'serviceStatus']),
  db: page(() => import('../pages/db.tsx'), [...TEXTS, 'serviceStatus']),
  ftp: page(() => import('../pages/ftp.tsx'), TEXTS),
  httpc: page(() => import('../pages/httpc.tsx'), [...TEXTS, 'serviceStatus']),
  smtp: page(() => import('../pages/smtp.tsx'), [...TEXTS, 'serviceStatus']),
  rest: page(() => import('../pages/rest.tsx'), TEXTS),
  iec: page(() => import('../pages/iec.tsx'), [...TEXTS, 'iec', 'serviceStatus']),
  script: page(() => import('../pages/script.tsx'), [...TEXTS, 'script', 'scriptLang']),
  tls: page(() => import('../pages/tls.tsx'), [...TEXTS, 'tls']),
  tlsclient: page(() => import('../pages/tlsclient.tsx'), [...TEXTS, 'tls']),
  tlsserver: page(() => import('../pages/tlsserver.tsx'), [...TEXTS, 'tls']),
  datetime: page(() => import('../pages/datetime.tsx'), [...TEXTS, 'datetime']),
  monitor: page(() => import('../pages/monitor.tsx'), [...TEXTS, 'monitor']),
  watch: page(() => import('../pages/watch.tsx'), [...TEXTS, 'logger', 'watch']),
  log: page(() => import('../pages/log.tsx'), [...TEXTS, 'logger']),
  legal: page(() => import('../pages/legal.tsx'), ['legal']),
  graphs: page(() => import('../pages/graphs.tsx'), TEXTS),
  users: page(() => import('../pages/users.tsx'), [...TEXTS, 'users']),
  backuprestore: page(() => import('../pages/backuprestore.tsx'), TEXTS),
  firmware: page(() => import('../pages/firmware.tsx'), TEXTS),
};

/**
 * Starts loading the code of the page a hash names (the first page, before anything renders); done
 * once the page can render at once (a page whose chunk failed renders its retry message).
 */
export function preloadPage(hash: string): Promise<void> {
  const p = pageOf(hashPath(hash));
  const loading = p ? (PAGE_COMPONENTS[p.id] as unknown as { preload?: () => Promise<unknown> }).preload?.() : undefined;
  return Promise.resolve(loading).then(() => undefined);
}

export const NotFoundPage = page(() => import('../pages/not-found.tsx'), ['notFound']);
