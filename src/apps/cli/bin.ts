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

/**
 * Once main() has returned, the command is done and its output written: a library's timer
 * must not keep the process alive (BullMQ's stalled-job check and lock renewal of a worker
 * whose job in hand waits for a Redis that is gone re-arm until that job ends).
 */
function exitSoon(code: number): void {
  process.exitCode = code;
  setTimeout(() => process.exit(code), 1000).unref();
}

main(process.argv).then(
  (code) => exitSoon(code),
  (error: unknown) => {
    process.stderr.write(`chunkwise: internal error: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exitCode = 70;
  },
);
