// The console imports its stylesheet once, globally; esbuild bundles it (stack.md: TS 6 and '*.css').
declare module '*.css';
