/**
 * The program's entry (bin/spidersolve.js runs the build of this file): holds SIGINT/SIGTERM from the
 * first moment (signals.ts), then loads the program and runs it on the user's arguments.
 */
import { catchSignalsEarly, signalAtStage } from './signals.js';

catchSignalsEarly();
const { main } = await import('./main.js');
signalAtStage('loaded');
await main(process.argv.slice(2));
