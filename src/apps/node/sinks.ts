/**
 * Node-only: opens a sink from a CLI spec (`lancedb:<dir>`, `pglite:<dir>`,
 * `postgres://…`), importing the store's module (and so its optional package) only then.
 * @module
 */
import { InvalidOptionError, SinkError } from '../../engine/errors.js';
import type { Sink } from '../../sinks/types.js';

/** Sink kinds a spec may name, with the packages each needs. */
export const SINK_KINDS = {
  lancedb: ['@lancedb/lancedb', 'apache-arrow'],
  pglite: ['@electric-sql/pglite', '@electric-sql/pglite-pgvector'],
  postgres: ['pg'],
} as const;

/** The spec forms, for messages. */
export const SINK_SPECS = 'lancedb:<dir>, pglite:<dir> or postgres://user@host:port/db[?table=name]';

/** Whether an error is a failed import of one of `packages`. */
function missingPackage(error: unknown, packages: readonly string[]): boolean {
  const e = error as NodeJS.ErrnoException;
  return (e?.code === 'ERR_MODULE_NOT_FOUND' || e?.code === 'MODULE_NOT_FOUND') && packages.some((p) => String(e.message).includes(`'${p}'`));
}

/**
 * Opens the sink a spec names: `lancedb:<dir>` (LanceDB folder), `pglite:<dir>` (PGlite
 * data folder with pgvector, locked for this process) or `postgres://…` /
 * `postgresql://…` (a Postgres server with pgvector; `?table=` names the table). `table`
 * defaults to `chunks`.
 * @throws {InvalidOptionError} for an unknown kind, an empty folder, or a URL's
 *   `?table=` that disagrees with `table`.
 * @throws {SinkError} when the store's package is not installed or the store cannot be
 *   opened (a PGlite folder another process holds, a server that cannot be reached).
 */
export async function openSink(spec: string, options: { table?: string } = {}): Promise<Sink> {
  const colon = typeof spec === 'string' ? spec.indexOf(':') : -1;
  const scheme = colon < 0 ? spec : spec.slice(0, colon);
  const kind = scheme === 'postgresql' ? 'postgres' : scheme;
  const rest = colon < 0 ? '' : spec.slice(colon + 1);
  const url = kind === 'postgres';
  if (!(kind in SINK_KINDS) || rest === '' || (url && !rest.startsWith('//'))) throw new InvalidOptionError('sink', spec, SINK_SPECS);
  const packages = SINK_KINDS[kind as keyof typeof SINK_KINDS];
  try {
    if (kind === 'lancedb') {
      process.env.LANCEDB_LOG ??= 'error'; // LanceDB logs warnings (a new table, …) to stderr otherwise
      const { LanceDbSink } = await import('../../sinks/lancedb.js');
      return await LanceDbSink.open(rest, { table: options.table });
    }
    if (url) {
      const { openPostgresSink } = await import('../../sinks/postgres.js');
      return await openPostgresSink(spec, { table: options.table });
    }
    const { openPgliteSink } = await import('../../sinks/pglite.js');
    return await openPgliteSink(rest, { table: options.table });
  } catch (error) {
    const shown = url ? spec.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1@') : spec; // no password in messages
    if (missingPackage(error, packages)) throw new SinkError(shown, `needs the optional package(s) ${packages.join(' and ')}: npm install ${packages.join(' ')}`);
    throw error;
  }
}
