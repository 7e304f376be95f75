// This daemon's version (the "app" version of spec §5), taken from package.json at build time.
import pkg from '../package.json' with { type: 'json' };

export const APP_VERSION: string = pkg.version;
