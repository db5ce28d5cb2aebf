// The version is put in at build time (build.mjs `define`) rather than imported from
// package.json: importing the JSON made every edit of package.json (a dev dependency, a
// script) change the minified bundles byte for byte.
declare const __CLOUDCHECKS_VERSION__: string | undefined;

/** The version printed by --version. */
export const VERSION: string = typeof __CLOUDCHECKS_VERSION__ === 'string' ? __CLOUDCHECKS_VERSION__ : '0.0.0-development';
