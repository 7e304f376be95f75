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

/**
 * A page's module: its component and, for a page whose first render shows data, `early`: the call
 * that asks for it (earlyInto in web/state/com-status.ts), made before each visit's first render.
 */
export type PageModule = { default: ComponentType; early?: () => Promise<void> };
type Loader = () => Promise<PageModule>;
/** A page's component, and `ready`: done when it can render at once with its data (code loaded and run, early call answered). */
export type PageComponent = ComponentType & { preload(): Promise<unknown>; ready(): Promise<void> };

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
 * with the settings pages' styles. `ready()` loads it when it is not yet and makes the page's early
 * call (each visit: the page's first render shows that answer, never one from an earlier visit).
 */
export function page(load: Loader, texts: readonly Namespaces[] = []): PageComponent {
  // the module alone, bounded as the whole: its early call goes out once the page's code is in,
  // beside its texts and model, and a chunk that never comes holds no move past the timeout
  let module: Promise<PageModule> | undefined;
  const Lazy = lazy(() => {
    module = withTimeout(load(), CHUNK_TIMEOUT_MS);
    return withTimeout(
      Promise.all([module, loadTexts(texts), texts.includes('fields') ? Promise.all([ensureModel(), import('../styles/forms-sheet.ts')]) : undefined]).then(
        ([m]) => m,
      ),
      CHUNK_TIMEOUT_MS,
    ).catch((e: unknown): PageModule => {
      console.error('page chunk failed to load', e);
      return { default: ChunkFailed };
    });
  });
  const ready = async (): Promise<void> => {
    const loading = Lazy.preload();
    await Promise.all([loading, module?.then((m) => m.early?.()).catch(() => undefined)]);
  };
  return Object.assign(Lazy, { ready });
}

/**
 * The parts of the texts every page but the information page may need (field labels, helps and
 * choices, the messages of refused input; the page blocks some pages share, such as the link states
 * or the restriction editor), loaded with the first such page or once the first page shows and the
 * browser is idle (web/app.tsx), whichever comes first: the first load carries only what the
 * information page shows. A page's own part (`users`, `tls` …) comes with its page.
 */
export const TEXTS = ['fields', 'form', 'errors', 'confirm', 'service', 'certs', 'com', 'port', 'rest', 'ftpStatus', 'graphs', 'backup', 'firmware'] as const;

/** The component of every page of spec §2, with the parts of the texts it needs. */
export const PAGE_COMPONENTS: Record<PageId, ComponentType & Partial<PageComponent>> = {
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
 * Done when the page a path names can render at once with its data: its code loaded and run and its
 * early call answered (bounded by EARLY_WAIT_MS), or failed (a page whose chunk failed renders its
 * retry message). Awaited before the first render (preloadPage) and before each move
 * (web/router/hash.tsx setBeforeMove): the page then renders once, with its data, in the task that
 * took the answer, while the page before it stays shown.
 */
export function pageReady(path: string): Promise<void> {
  const p = pageOf(path.split('?')[0]!);
  return Promise.resolve(p ? PAGE_COMPONENTS[p.id].ready?.() : undefined).then(
    () => undefined,
    () => undefined,
  );
}

/** pageReady for the page a hash names (the first page, before anything renders). */
export const preloadPage = (hash: string): Promise<void> => pageReady(hashPath(hash));

/**
 * Loads and runs the code of the pages `ids` (the daemon's idle list), one page each time `later` runs it
 * (the browser idle): a first move to one of them then waits only for its data (asked with the move,
 * web/api/ask-ahead.ts), not for its module to run (15-20 ms at CPU 4× for /log) nor for its texts.
 * A page's module asks for nothing when it runs: its early call is made by `ready`.
 */
export function runPagesIdle(ids: readonly string[], later: (fn: () => void) => void): void {
  const left = ids.filter((id): id is PageId => Object.hasOwn(PAGE_COMPONENTS, id));
  const next = () => {
    const id = left.shift();
    if (id === undefined) return;
    void Promise.resolve(PAGE_COMPONENTS[id].preload?.())
      .catch(() => undefined)
      .then(() => later(next));
  };
  later(next);
}

export const NotFoundPage = page(() => import('../pages/not-found.tsx'), ['notFound']);
