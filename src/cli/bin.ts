#!/usr/bin/env node
// The `chunkwise` executable: runs the CLI and sets the exit code (see main.ts).
import { main } from './main.js';

main(process.argv).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`chunkwise: internal error: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exitCode = 70;
  },
);
