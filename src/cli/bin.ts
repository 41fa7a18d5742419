#!/usr/bin/env node
// The `chunkwise` executable: runs the CLI and sets the exit code (see main.ts).
import { main } from './main.js';

// A reader that closes the pipe early (`chunkwise chunk … | head`) is not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

main(process.argv).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`chunkwise: internal error: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exitCode = 70;
  },
);
