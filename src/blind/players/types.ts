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
  /**
   * Why the player's last answer was null (it had no move it would play), as NoMoveWhy says; null if
   * its last answer was a move, or before its first.
   */
  whyNone(): NoMoveWhy | null;
}

/**
 * Why a blind player would play none of the legal moves of a view (greedy.ts: the sample player stops
 * only when its greedy fallback does). `legal`: the legal moves of the view (observedMoves), deals
 * included; `refused`: the card moves it would not play, counted by the first reason that holds, in
 * the order of NoMoveReason; `deal`: why it did not deal: `none left` (the stock is empty) or `blocked`
 * (R12: a column is empty, and no move into it that the player would play fills it); `idle`: the
 * limit of moves without turning a card up that it had reached (greedy's IDLE_LIMIT, or the sample
 * player's `stretch`), after which it only deals or fills an empty column for the deal; null when it
 * had not.
 */
export interface NoMoveWhy {
  readonly legal: number;
  readonly refused: readonly { readonly reason: NoMoveReason; readonly count: number }[];
  readonly deal: 'none left' | 'blocked';
  readonly idle: number | null;
}

/**
 * Why the greedy player refuses a card move (greedy.ts, its module comment): `whole column` (moves a
 * whole column into an empty one: nothing gained), `back` (leads back to a view it has met since the
 * last card was turned up), `breaks run` (breaks an in-suit run), `no gain` (moves a group off a card
 * one rank higher onto another card, of another suit), `spends empty` (into an empty column without
 * turning up a card or freeing one for its suit), `strands stock` (completes a suit and leaves fewer
 * cards on the table than columns while a deal is left, so the stock can never be dealt: R12), `idle`
 * (a move it would score, refused once it has gone its limit of moves without turning a card up:
 * NoMoveWhy.idle).
 */
export type NoMoveReason = 'whole column' | 'back' | 'breaks run' | 'no gain' | 'spends empty' | 'strands stock' | 'idle';
