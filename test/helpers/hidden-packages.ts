/**
 * A plain install, simulated: Node arguments (`--import …`) that make the named packages
 * unresolvable in the process they start — an ESM resolve hook (`import`, dynamic
 * `import()`, `import.meta.resolve`) and a wrapper of CommonJS resolution (`require`,
 * `require.resolve`) that throw Node's own "Cannot find package" errors for a package
 * and its subpaths. The files stay installed; only that process cannot see them.
 * @module
 */

/** `--import` arguments for `node` that hide `packages`. */
export function hidePackagesArgs(packages: readonly string[]): string[] {
  const names = JSON.stringify(packages);
  const hidden = `const hidden = ${names}; const isHidden = (s) => hidden.some((p) => s === p || s.startsWith(p + '/'));`;
  const hooks = `${hidden}
export async function resolve(specifier, context, next) {
  if (isHidden(specifier)) throw Object.assign(new Error("Cannot find package '" + specifier + "' imported from " + context.parentURL), { code: 'ERR_MODULE_NOT_FOUND' });
  return next(specifier, context);
}`;
  const register = `import Module, { register } from 'node:module';
${hidden}
register(${JSON.stringify('data:text/javascript,' + encodeURIComponent(hooks))});
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (isHidden(request)) throw Object.assign(new Error("Cannot find module '" + request + "'"), { code: 'MODULE_NOT_FOUND' });
  return resolveFilename.call(this, request, ...rest);
};`;
  return ['--import', 'data:text/javascript,' + encodeURIComponent(register)];
}
