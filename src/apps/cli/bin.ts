#!/usr/bin/env node
// The `chunkwise` executable: runs the CLI and sets the exit code (see main.ts).
import { main } from './main.js';
import { fsReason } from './errors.js';

// A reader that closes the pipe early (`chunkwise chunk … | head`) is not an error; any
// other failure of stdout (a full device) is one line and exit 1, never Node's trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  process.stderr.write(`chunkwise: cannot write to stdout: ${fsReason(error)}\n`);
  process.exit(1);
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
