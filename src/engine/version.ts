/**
 * The package's version, as in package.json. `npm run build` rewrites this file when
 * package.json's version differs (scripts/build-wasm.mjs); test/version.test.ts checks that
 * they agree. A module constant rather than a JSON import so that every runtime (browsers,
 * edge workers) can read it.
 */
export const VERSION = '0.1.0';
