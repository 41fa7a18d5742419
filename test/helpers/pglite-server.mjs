// A Postgres server for tests: PGlite in memory with pgvector, served over the Postgres
// protocol by @electric-sql/pglite-socket on a free loopback port. Prints
// `listening 127.0.0.1:<port>` on stdout when it accepts connections; stops on SIGTERM.
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

const db = await PGlite.create({ extensions: { vector } });
const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 64 });
await server.start();
process.stdout.write(`listening ${server.getServerConn()}\n`);
process.on('SIGTERM', async () => {
  await server.stop();
  await db.close();
  process.exit(0);
});
