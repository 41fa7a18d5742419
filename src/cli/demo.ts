// `npm run demo` (dist/src/cli/demo.js, kept at this path): prints the demo table of
// src/apps/cli/demo.ts.
import { runDemo } from '../apps/cli/demo.js';

runDemo().then(
  (table) => console.log(table),
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
