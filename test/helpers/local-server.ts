import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';

/**
 * A local HTTP server for the tests of a describe block (an OpenAI-compatible endpoint's
 * stand-in): started before its tests on a free port of 127.0.0.1, closed after them.
 * @returns an object whose `baseURL` (`http://127.0.0.1:PORT/v1`) is set once started.
 */
export function localServer(handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>): { baseURL: string } {
  const out = { baseURL: '' };
  const server = createServer((req, res) => void handle(req, res));
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    out.baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return out;
}
