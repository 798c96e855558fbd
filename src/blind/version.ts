/**
 * The version of the blind players' behaviour, stored with every blind result of a batch study
 * (src/batch/blind.ts blindVersion): change it whenever a player's moves for a given deal, spec and
 * seed may change, so that results of the new players are stored beside the old ones, not mixed.
 * Version 4: the sample player's greedy stretch deals after `stretch` moves (default 20) without a
 * card turned up; in version 3 and before it went greedy's own 200 (a spec text without `stretch`
 * stored under them means 200). Version 5: greedy (alone, and as the sample player's fallback) never
 * plays a move that completes a suit and leaves fewer cards on the table than columns while a deal is
 * left (R12: the stock could never be dealt; greedy.ts strandsStock). Version 6: the sample player's
 * vote without the stock solves its completions without the solver's dead ends (solver 3.9.0), which
 * in a world with the stock taken away stop the tidying lines the vote looks for. Version 7: every solve
 * of the sample player leaves the dead ends out (sample.ts PLAYER_TUNING), so that its solves search as
 * the solver did before them (3.8.0).
 */
export const BLIND_VERSION = '7';
