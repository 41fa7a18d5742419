/**
 * The four sinks a cross-sink test runs on, each opened fresh: LanceDB in a folder of
 * `tmp`, PGlite in memory, a Postgres server over the wire (table `table`) and the
 * memory sink.
 */
import { join } from 'node:path';
import type { Sink } from '../../src/sinks/types.js';
import { LanceDbSink } from '../../src/sinks/lancedb.js';
import { MemorySink } from '../../src/sinks/memory.js';
import { openPgliteSink } from '../../src/sinks/pglite.js';
import { openPostgresSink } from '../../src/sinks/postgres.js';
import type { PgServer } from './pg-server.js';

/** [name, open] pairs for `describe.each`. */
export function everySink(tmp: string, server: () => PgServer, table: string): [string, () => Promise<Sink>][] {
  return [
    ['LanceDB', () => LanceDbSink.open(join(tmp, `lance-${table}`))],
    ['PGlite', () => openPgliteSink(undefined)],
    ['Postgres (pg over the wire)', () => openPostgresSink(server().url(table))],
    ['memory', async () => new MemorySink()],
  ];
}
