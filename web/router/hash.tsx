// Hash routing for preact-iso (spec §2: "Routing is hash based"). preact-iso's own provider reads
// location.pathname; this one gives its Router the path after '#', so Router, lazy() and route
// params work unchanged. A guard may refuse to leave (unsaved changes): the old hash comes back.
// A move then waits until the new page can render with its data (setBeforeMove) before it renders.

import { signal } from '@preact/signals';
import type { ComponentChildren } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { LocationProvider } from 'preact-iso/router';

/** '#/mqtt?x=1' → '/mqtt?x=1'; anything else → '/' */
export const hashPath = (hash: string) => (hash.startsWith('#/') ? hash.slice(1) : '/');

export type LeaveGuard = (from: string, to: string) => boolean | Promise<boolean>;
let guard: LeaveGuard = () => true;
export const setLeaveGuard = (g: LeaveGuard) => {
  guard = g;
};

/** What a move waits for before the new page renders (web/router/routes.tsx pageReady); it never rejects. */
export type BeforeMove = (to: string) => Promise<void>;
let beforeMove: BeforeMove = () => Promise.resolve();
export const setBeforeMove = (b: BeforeMove) => {
  beforeMove = b;
};

let current = '/';
/** counts the changes of the address: a move still waiting for its page when a later one comes is dropped */
let moves = 0;
/** the path a move waits for (its page's code and data: the page before stays shown meanwhile), null when none */
export const movingTo = signal<string | null>(null);
let approved: string | null = null;
/** where the current entry is in the session history (kept in history.state, so Back can be undone) */
let position = 0;
const positionOf = (): number | undefined => {
  const p = (history.state as { pos?: unknown } | null)?.pos;
  return typeof p === 'number' ? p : undefined;
};

/** Goes to a path (after the leave guard agrees). */
export async function navigate(to: string, replace = false): Promise<boolean> {
  if (to === current || to === movingTo.value) return true; // there, or on the way there
  if (!(await guard(current, to))) return false;
  approved = to;
  if (replace) history.replaceState({ pos: position }, '', `#${to}`);
  else history.pushState({ pos: position + 1 }, '', `#${to}`);
  dispatchEvent(new HashChangeEvent('hashchange'));
  return true;
}

export function HashLocationProvider(props: { children: ComponentChildren }) {
  const [url, setUrl] = useState(() => (current = hashPath(location.hash)));
  useEffect(() => {
    position = positionOf() ?? 0;
    history.replaceState({ pos: position }, '', location.href);
    let asking = false;
    const onChange = async () => {
      const to = hashPath(location.hash);
      const pos = positionOf();
      if (to === current || asking) {
        if (to === current) {
          moves++; // back where we are: a move still waiting for its page is not made
          movingTo.value = null;
          if (pos !== undefined) position = pos;
        }
        return;
      }
      if (approved !== to) {
        asking = true;
        const ok = await guard(current, to);
        asking = false;
        // refused (a link or the back button with unsaved changes): undo the move in the history, so
        // the address bar shows where we stay and no entry is lost (a new entry from a link or a typed
        // address is left with Back; Back or Forward is undone by going the other way)
        if (!ok) return pos === undefined ? history.back() : history.go(position - pos);
      }
      approved = null;
      // the page before stays shown until the new one can render with its data
      const move = ++moves;
      movingTo.value = to;
      await beforeMove(to);
      if (move !== moves) return; // a later change of the address took over
      movingTo.value = null;
      current = to;
      position = pos ?? position + 1;
      if (pos === undefined) history.replaceState({ pos: position }, '', location.href);
      setUrl(to);
      window.scrollTo(0, 0);
    };
    addEventListener('hashchange', onChange);
    return () => removeEventListener('hashchange', onChange);
  }, []);
  const value = useMemo(() => {
    const u = new URL(url, 'http://x');
    return {
      url,
      path: u.pathname.replace(/\/+$/, '') || '/',
      query: Object.fromEntries(u.searchParams),
      route: (to: string, replace?: boolean) => void navigate(to, replace),
      back: () => history.back(),
      forward: () => history.forward(),
      wasPush: true,
    };
  }, [url]);
  const Ctx = (LocationProvider as unknown as { ctx: { Provider: (p: { value: unknown; children: ComponentChildren }) => preact.JSX.Element } }).ctx;
  return <Ctx.Provider value={value}>{props.children}</Ctx.Provider>;
}
