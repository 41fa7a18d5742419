/**
 * Starts test/helpers/pglite-server.mjs (PGlite with pgvector behind the Postgres wire
 * protocol, on 127.0.0.1 and a port the system picks) in a child process, so that the
 * server answers while the test process waits on child processes of its own.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll } from 'vitest';
import { join } from 'node:path';
import { repoRoot } from './paths.js';

/** A running server: its `postgres://` URL for a database and how to stop it. */
export interface PgServer {
  /** `postgres://postgres@127.0.0.1:<port>/postgres`, with `?table=` when given. */
  url(table?: string): string;
  stop(): Promise<void>;
}

/** Starts a server; resolves once it listens. @throws when it exits or prints no address within 100 s (a loaded machine takes tens of seconds). */
export function startPgServer(): Promise<PgServer> {
  const child = spawn(process.execPath, [join(repoRoot, 'test', 'helpers', 'pglite-server.mjs')], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`pglite-server printed no address in 100 s: ${out}`));
    }, 100_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`pglite-server exited with ${code}: ${out}`));
    });
    child.stdout.on('data', (data: Buffer) => {
      out += data.toString();
      const m = /listening (\S+)/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      const base = `postgres://postgres@${m[1]}/postgres`;
      resolve({
        url: (table) => (table === undefined ? base : `${base}?table=${table}`),
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
  });
}

/** Starts a server before the tests of the calling file and stops it after them. @returns the running server (after `beforeAll`). */
export function usePgServer(): () => PgServer {
  let server: PgServer | undefined;
  beforeAll(async () => {
    server = await startPgServer();
  });
  afterAll(async () => {
    await server?.stop();
  });
  return () => server!;
}
