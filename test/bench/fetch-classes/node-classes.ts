// Bundled in place of device/net/fetch/install.ts for the fetch-classes bench (../fetch-classes.ts):
// the daemon starts with node's own Headers, Request and Response in the globals.
export function installDaemonFetchClasses(): void {}
