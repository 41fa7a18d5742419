/**
 * The web page's file server (web/serve.mjs) serves files inside its folders only: a path
 * that climbs out is refused, and so is a symlink inside a served folder that leads out
 * of it (the check is on the real path, symlinks resolved). No browser needed.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from './helpers/paths.js';

const tmp = mkdtempSync(join(tmpdir(), 'chunkwise-serve-'));
const served = join(tmp, 'served');
const outside = join(tmp, 'secret.txt');

describe('web/serve.mjs stays inside its folders', () => {
  let server: Server;
  let origin: string;

  beforeAll(async () => {
    mkdirSync(join(served, 'inner'), { recursive: true });
    writeFileSync(join(served, 'page.txt'), 'served\n');
    writeFileSync(join(served, 'inner', 'deep.txt'), 'deep\n');
    writeFileSync(outside, 'not to be served\n');
    symlinkSync(outside, join(served, 'leak.txt')); // a link to a file outside
    symlinkSync(tmp, join(served, 'up')); // a link to a folder above
    symlinkSync(join(served, 'inner', 'deep.txt'), join(served, 'alias.txt')); // a link that stays inside
    const { createWebServer } = await import(join(repoRoot, 'web', 'serve.mjs'));
    server = createWebServer({ mounts: [['/files/', served]] });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => {
    server?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  const get = async (path: string) => {
    const r = await fetch(origin + path);
    return [r.status, await r.text()];
  };

  it('serves files and links that stay inside; refuses links that lead out and paths that climb out', async () => {
    expect(await get('/files/page.txt')).toEqual([200, 'served\n']);
    expect(await get('/files/inner/deep.txt')).toEqual([200, 'deep\n']);
    expect(await get('/files/alias.txt')).toEqual([200, 'deep\n']);
    expect(await get('/files/leak.txt')).toEqual([404, 'not found: /files/leak.txt']);
    expect(await get('/files/up/secret.txt')).toEqual([404, 'not found: /files/up/secret.txt']);
    expect((await get('/files/%2e%2e/secret.txt'))[0]).toBe(404);
    expect((await get('/files/missing.txt'))[0]).toBe(404);
  });
});
