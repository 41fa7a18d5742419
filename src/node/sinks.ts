/**
 * Node-only: opens a sink from a CLI spec (`lancedb:<dir>`, `pglite:<dir>`), importing
 * the store's module (and so its optional package) only then.
 * @module
 */
import { InvalidOptionError, SinkError } from '../core/errors.js';
import type { Sink } from '../sinks/types.js';

/** Sink kinds a spec may name, with the packages each needs. */
export const SINK_KINDS = {
  lancedb: ['@lancedb/lancedb', 'apache-arrow'],
  pglite: ['@electric-sql/pglite', '@electric-sql/pglite-pgvector'],
} as const;

/** Whether an error is a failed import of one of `packages`. */
function missingPackage(error: unknown, packages: readonly string[]): boolean {
  const e = error as NodeJS.ErrnoException;
  return (e?.code === 'ERR_MODULE_NOT_FOUND' || e?.code === 'MODULE_NOT_FOUND') && packages.some((p) => String(e.message).includes(`'${p}'`));
}

/**
 * Opens the sink a spec names: `lancedb:<dir>` (LanceDB folder) or `pglite:<dir>` (PGlite
 * data folder with pgvector); `table` defaults to `chunks`.
 * @throws {InvalidOptionError} for an unknown kind or an empty folder.
 * @throws {SinkError} when the store's package is not installed or the store cannot be opened.
 */
export async function openSink(spec: string, options: { table?: string } = {}): Promise<Sink> {
  const colon = typeof spec === 'string' ? spec.indexOf(':') : -1;
  const kind = colon < 0 ? spec : spec.slice(0, colon);
  const dir = colon < 0 ? '' : spec.slice(colon + 1);
  if (!(kind in SINK_KINDS) || dir === '') throw new InvalidOptionError('sink', spec, 'lancedb:<dir> or pglite:<dir>');
  const packages = SINK_KINDS[kind as keyof typeof SINK_KINDS];
  try {
    if (kind === 'lancedb') {
      process.env.LANCEDB_LOG ??= 'error'; // LanceDB logs warnings (a new table, …) to stderr otherwise
      const { LanceDbSink } = await import('../sinks/lancedb.js');
      return await LanceDbSink.open(dir, { table: options.table });
    }
    const { openPgliteSink } = await import('../sinks/pglite.js');
    return await openPgliteSink(dir, { table: options.table });
  } catch (error) {
    if (missingPackage(error, packages)) throw new SinkError(spec, `needs the optional package(s) ${packages.join(' and ')}: npm install ${packages.join(' ')}`);
    throw error;
  }
}
