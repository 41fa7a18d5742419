#!/usr/bin/env node
// The `chunkwise` executable (package.json "bin": dist/src/cli/bin.js, kept at this path):
// the CLI is src/apps/cli/bin.ts.
import '../apps/cli/bin.js';
