// One lazy chunk per page (architecture: "one lazy chunk per page"), each load bounded by the
// chunk-load timeout of spec §9; a chunk that cannot be loaded shows a retry message instead.
import lazy from 'preact-iso/lazy';
import type { ComponentType } from 'preact';
import { PAGES, pageOf, type PageId } from '../pages.ts';
import { hashPath } from './hash.tsx';
import { ChunkFailed } from '../shell/chunk-failed.tsx';

export const CHUNK_TIMEOUT_MS = 120_000; // spec §9: chunk load timeout 120 s

type Loader = () => Promise<{ default: ComponentType }>;

export function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('chunk load timeout')), ms);
    p.then((v) => { clearTimeout(t); resolve(v); }, (e: unknown) => { clearTimeout(t); reject(e); });
  });
}

export const page = (load: Loader) =>
  lazy(() => withTimeout(load(), CHUNK_TIMEOUT_MS).catch((e: unknown) => {
    console.error('page chunk failed to load', e);
    return { default: ChunkFailed };
  }));

const coming = page(() => import('../pages/coming.tsx'));

/** The component of every page; pages later issues fill show the shared "coming" page until then. */
export const PAGE_COMPONENTS: Record<PageId, ComponentType> = {
  ...(Object.fromEntries(PAGES.map((p) => [p.id, coming])) as unknown as Record<PageId, ComponentType>),
  info: page(() => import('../pages/info.tsx')),
  com: page(() => import('../pages/com.tsx')),
  port: page(() => import('../pages/port.tsx')),
  wizard_com: page(() => import('../pages/wizard-com.tsx')),
  mqtt: page(() => import('../pages/mqtt.tsx')),
  sql: page(() => import('../pages/sql.tsx')),
  db: page(() => import('../pages/db.tsx')),
  ftp: page(() => import('../pages/ftp.tsx')),
  httpc: page(() => import('../pages/httpc.tsx')),
  smtp: page(() => import('../pages/smtp.tsx')),
  rest: page(() => import('../pages/rest.tsx')),
  iec: page(() => import('../pages/iec.tsx')),
  script: page(() => import('../pages/script.tsx')),
  tls: page(() => import('../pages/tls.tsx')),
  tlsclient: page(() => import('../pages/tlsclient.tsx')),
  tlsserver: page(() => import('../pages/tlsserver.tsx')),
  datetime: page(() => import('../pages/datetime.tsx')),
  log: page(() => import('../pages/log.tsx')),
  legal: page(() => import('../pages/legal.tsx')),
  graphs: page(() => import('../pages/graphs.tsx')),
};

/** Starts loading the code of the page a hash names (the first page, before anything renders). */
export function preloadPage(hash: string): void {
  const p = pageOf(hashPath(hash));
  if (p) void (PAGE_COMPONENTS[p.id] as unknown as { preload?: () => Promise<unknown> }).preload?.();
}

export const NotFoundPage = page(() => import('../pages/not-found.tsx'));
