#!/usr/bin/env node
// The installed `spidersolve` command: runs the compiled CLI (npm run build → dist/). The entry holds
// SIGINT/SIGTERM before it loads the rest of the program (src/cli/entry.ts, src/cli/signals.ts).
import '../dist/src/cli/entry.js';
