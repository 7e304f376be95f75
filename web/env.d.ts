// The pages' own sheets are imported as text (`with { type: 'text' }`); the global stylesheet,
// web/styles/app.css, is an entry of the build (build/web.ts), imported by no module. TS 6 needs the
// declaration for either kind of CSS import (stack.md: TS 6 and '*.css').
declare module '*.css';
