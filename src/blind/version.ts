/**
 * The version of the blind players' behaviour, stored with every blind result of a batch study
 * (src/batch/blind.ts blindVersion): change it whenever a player's moves for a given deal, spec and
 * seed may change, so that results of the new players are stored beside the old ones, not mixed.
 */
export const BLIND_VERSION = '3';
