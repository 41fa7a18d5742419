/**
 * A real Redis for the queue tests: Debian's `redis-server` on a free loopback port, no
 * persistence, stopped when the test file ends. Where it is not installed the tests skip,
 * except under CI=true, where they fail (`.ci/run` installs it).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

/** Whether `redis-server` can be run here. */
export const redisAvailable = spawnSync('redis-server', ['--version'], { encoding: 'utf8' }).status === 0;

/** Whether the queue tests run: redis-server is here, or CI demands it (and the tests fail without it). */
export const runRedisTests = redisAvailable || process.env.CI === 'true';

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** A running redis-server: its URL and port, and how to stop it (SIGKILL). */
export interface RedisServer {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/**
 * Starts redis-server on a loopback port (a free one unless `port` is given) and waits
 * until it answers. With `dir`, every write is appended to a file there and synced at
 * once, so a server killed and started again on that `dir` has every job back.
 * @throws when it cannot start in 10 s.
 */
export async function startRedis(o: { port?: number; dir?: string } = {}): Promise<RedisServer> {
  if (!redisAvailable) throw new Error('redis-server is not installed (apt-get install redis-server)');
  const port = o.port ?? (await freePort());
  const persistence = o.dir ? ['--dir', o.dir, '--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no'];
  const child: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', ...persistence], { stdio: 'ignore' });
  const deadline = Date.now() + 10_000;
  for (;;) {
    const ping = spawnSync('redis-cli', ['-p', String(port), 'ping'], { encoding: 'utf8' });
    if (ping.stdout?.trim() === 'PONG') break;
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill('SIGKILL');
      throw new Error(`redis-server did not start on port ${port}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: `redis://127.0.0.1:${port}/0`,
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}
