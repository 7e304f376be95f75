// One lazy chunk per page (architecture: "one lazy chunk per page"), each load bounded by the
// chunk-load timeout of spec §9; a chunk that cannot be loaded shows a retry message instead.
import lazy from 'preact-iso/lazy';
import type { ComponentType } from 'preact';
import { pageOf, type PageId } from '../pages.ts';
import { hashPath } from './hash.tsx';
import { ChunkFailed } from '../shell/chunk-failed.tsx';
import { loadTexts } from '../i18n/translate.ts';
import type { Namespaces } from '../i18n/i18n-types.ts';

export const CHUNK_TIMEOUT_MS = 120_000; // spec §9: chunk load timeout 120 s

type Loader = () => Promise<{ default: ComponentType }>;

export function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('chunk load timeout')), ms);
    p.then((v) => { clearTimeout(t); resolve(v); }, (e: unknown) => { clearTimeout(t); reject(e); });
  });
}

/** A page's chunk, loaded together with the parts of the dictionary it needs (`texts`). */
export const page = (load: Loader, texts: readonly Namespaces[] = []) =>
  lazy(() => withTimeout(Promise.all([load(), loadTexts(texts)]).then(([m]) => m), CHUNK_TIMEOUT_MS).catch((e: unknown) => {
    console.error('page chunk failed to load', e);
    return { default: ChunkFailed };
  }));

/** pages that edit settings show field labels, helps and choices: the `fields` part of the texts */
const FORM = ['fields'] as const;

/** The component of every page of spec §2, with the parts of the texts it needs. */
export const PAGE_COMPONENTS: Record<PageId, ComponentType> = {
  info: page(() => import('../pages/info.tsx')),
  com: page(() => import('../pages/com.tsx'), FORM),
  port: page(() => import('../pages/port.tsx'), FORM),
  wizard_com: page(() => import('../pages/wizard-com.tsx'), ['fields', 'wizard']),
  mqtt: page(() => import('../pages/mqtt.tsx'), FORM),
  sql: page(() => import('../pages/sql.tsx'), FORM),
  db: page(() => import('../pages/db.tsx'), FORM),
  ftp: page(() => import('../pages/ftp.tsx'), FORM),
  httpc: page(() => import('../pages/httpc.tsx'), FORM),
  smtp: page(() => import('../pages/smtp.tsx'), FORM),
  rest: page(() => import('../pages/rest.tsx'), FORM),
  iec: page(() => import('../pages/iec.tsx'), FORM),
  script: page(() => import('../pages/script.tsx'), FORM),
  tls: page(() => import('../pages/tls.tsx'), FORM),
  tlsclient: page(() => import('../pages/tlsclient.tsx'), FORM),
  tlsserver: page(() => import('../pages/tlsserver.tsx'), FORM),
  datetime: page(() => import('../pages/datetime.tsx'), FORM),
  log: page(() => import('../pages/log.tsx'), ['fields', 'logger']),
  legal: page(() => import('../pages/legal.tsx')),
  graphs: page(() => import('../pages/graphs.tsx')),
  users: page(() => import('../pages/users.tsx')),
  backuprestore: page(() => import('../pages/backuprestore.tsx')),
  firmware: page(() => import('../pages/firmware.tsx')),
};

/** Starts loading the code of the page a hash names (the first page, before anything renders). */
export function preloadPage(hash: string): void {
  const p = pageOf(hashPath(hash));
  if (p) void (PAGE_COMPONENTS[p.id] as unknown as { preload?: () => Promise<unknown> }).preload?.();
}

export const NotFoundPage = page(() => import('../pages/not-found.tsx'));
