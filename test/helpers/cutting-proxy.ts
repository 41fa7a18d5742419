/**
 * A TCP proxy on a loopback port in front of a server, that cuts every connection through
 * it (a TCP reset to the client) when a client sends bytes containing a given string: a
 * Postgres connection lost in the middle of a statement, at a moment the test chooses.
 * After `refuse()`, it also closes its port (new connections are refused: the server is
 * gone).
 */
import { createServer, connect, type Server, type Socket } from 'node:net';

/** A running proxy. */
export interface CuttingProxy {
  /** The port clients connect to. */
  port: number;
  /** Connections cut so far (each cut resets every open connection: counted once). */
  readonly cuts: number;
  /** Cuts every connection the next `times` times a client sends bytes containing `marker`. */
  cutOn(marker: string, times?: number): void;
  /** Cuts every open connection and refuses new ones from now on. */
  refuse(): void;
  close(): Promise<void>;
}

/** Starts a proxy from a free loopback port to `host:port`. */
export async function startCuttingProxy(host: string, port: number): Promise<CuttingProxy> {
  const open = new Set<[Socket, Socket]>();
  let marker: Buffer | undefined;
  let left = 0;
  let cuts = 0;
  const cutAll = () => {
    for (const [client, upstream] of open) {
      client.resetAndDestroy();
      upstream.destroy();
    }
    open.clear();
  };
  const server: Server = createServer((client) => {
    const upstream = connect(port, host);
    const pair: [Socket, Socket] = [client, upstream];
    open.add(pair);
    const drop = () => {
      open.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('data', (data: Buffer) => {
      if (marker && left > 0 && data.includes(marker)) {
        left--;
        cuts++;
        cutAll();
        return;
      }
      upstream.write(data);
    });
    upstream.on('data', (data: Buffer) => client.write(data));
    client.on('error', drop);
    upstream.on('error', drop);
    client.on('close', drop);
    upstream.on('close', drop);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return {
    port: address.port,
    get cuts() {
      return cuts;
    },
    cutOn(text: string, times = 1) {
      marker = Buffer.from(text);
      left = times;
    },
    refuse() {
      server.close();
      cutAll();
    },
    close: () =>
      new Promise<void>((resolve) => {
        cutAll();
        if (!server.listening) return resolve();
        server.close(() => resolve());
      }),
  };
}
