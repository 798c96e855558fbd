#!/usr/bin/env node
// The installed `spidersolve` command: runs the compiled CLI (npm run build → dist/).
import { main } from '../dist/src/cli/main.js';

await main(process.argv.slice(2));
