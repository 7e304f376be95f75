// The console's first frame as HTML, for the daemon to put into index.html (device/api/first-frame.ts):
// the console's own start (web/start.ts) and App, rendered to a string. build/web.ts builds it with
// the console, as one script; the daemon runs that script anew for each page, in a thread of its
// own (device/api/first-frame-worker.ts), in a V8 context whose document carries the start answers
// it has just made and whose storage holds the browser's preferences: the same code and the same
// data give the markup the browser's first render gives.
import { renderToString } from 'preact-render-to-string';
import { App } from './app.tsx';
import { startConsole } from './start.ts';

declare global {
  // the context's one entry point, which the daemon calls once, and where the markup is left
  var renderFirstFrame: (hash: string) => void;
  var firstFrame: string | undefined;
}

globalThis.renderFirstFrame = (hash: string) => {
  void startConsole(hash).then(() => {
    globalThis.firstFrame = renderToString(<App />);
  });
};
