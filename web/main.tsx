// Entry of the console: the start (web/start.ts), then the app. When the daemon put its first frame
// into the page, the page's gate runs this script once the frame is painted (device/model/first-frame.ts:
// paired loads at CPU 4× showed the frame 40-70 ms sooner than with the start beside the paint);
// the first render then takes over the frame's elements, and a frame not shown is dropped.
import { render } from 'preact';
import { FIRST_FRAME_ATTR, FIRST_FRAME_SHOW } from '../device/model/first-frame.ts';
import { App } from './app.tsx';
import { startConsole } from './start.ts';

const app = document.getElementById('app')!;
const root = document.documentElement;
// the gate showed the frame when the hash was its page's
const frameShown = app.hasAttribute(FIRST_FRAME_ATTR) && root.getAttribute(FIRST_FRAME_ATTR) === FIRST_FRAME_SHOW;
const hash = location.hash;

void startConsole(hash).then(() => {
  // a link followed in the frame before the console ran leads elsewhere: that page renders afresh
  if (!frameShown || location.hash !== hash) app.replaceChildren();
  app.removeAttribute(FIRST_FRAME_ATTR);
  root.removeAttribute(FIRST_FRAME_ATTR);
  render(<App />, app);
  void import('./after-start.ts');
});
