/**
 * The contract between the referee (../game.ts) and a blind player: a player sees only Observations
 * (../observation.ts), never a Position, and answers with a move.
 */
import type { Move } from '../../game/move.js';
import type { Observation } from '../observation.js';

/**
 * A blind player for one game. Created from its spec and its own seed (players/index.ts createPlayer);
 * it may keep state between calls (a plan, the views it has passed through).
 */
export interface BlindPlayer {
  /**
   * The move to play in the observed position: one of `observedMoves(obs)` (../observation.ts), or
   * null when the player has no move it will play (the game then ends stuck). Called once a move,
   * with the observation after every move the referee applied.
   */
  next(obs: Observation): Move | null;
  /** Work done so far: perfect-information solves run and positions they stored (0 for greedy). */
  readonly work: { solves: number; positions: number; plans: number; fallbacks: number };
}
