/**
 * The referee of a blind game: it holds the true Position, hands the player only Observations
 * (observation.ts), checks each move the player answers against the rules engine (resolveMove) and
 * applies it (applyMove, R6–R15), and records what each move turned up. The player is created here from
 * its spec and seed and never receives the Position.
 *
 * `playBlind` is the one entry point a batch worker calls: deal position, player spec, seed, options →
 * BlindGame; `startBlind` plays the same game one move at a time (the `blind` command shows each move
 * as it is played, and stops between two moves on a signal). It is deterministic: the same position, spec, seed and options give the
 * same moves and result (only `elapsedMs` differs).
 */
import { makeCard, type Card, type Suit } from '../game/cards.js';
import { describeMove } from '../game/describe.js';
import type { Move } from '../game/move.js';
import { isWon, type Position } from '../game/position.js';
import { applyMove, moveText, resolveMove } from '../game/rules.js';
import { observe } from './observation.js';
import { createPlayer, specText, type PlayerSpec } from './players/index.js';
import type { NoMoveWhy } from './players/types.js';

/** One move of a blind game. */
export interface BlindStep {
  /** The move in the project's notation (`3-7`, `d`, `3-7x4`), columns from 1. */
  readonly move: string;
  /** The move in words (describe.ts), judged against the position before it. */
  readonly words: string;
  /** Cards the move turned face up, in column order: column (from 1) and card (`10H`): flips (R11, R15) and a deal's cards (R12). */
  readonly turnedUp: readonly { readonly column: number; readonly card: string }[];
  /** Suits (letters S H D C) completed and removed by the move (R14). */
  readonly completed: readonly string[];
  /** Was the move chosen by the sample player's greedy fallback (no completion won)? Always false for greedy itself. */
  readonly fallback: boolean;
}

/** Options of a blind game. */
export interface BlindOptions {
  /** The game ends stuck after this many moves (default 1,000; a guard against a player that loops). */
  readonly maxMoves?: number;
}

/** Default of BlindOptions.maxMoves. */
export const DEFAULT_MAX_MOVES = 1000;

/** The result of a blind game. */
export interface BlindGame {
  /** The player's canonical spec (players/index.ts specText), stored with every result. */
  readonly player: string;
  /** The player's seed. */
  readonly seed: number;
  /** `won` (R5), or `stuck`: the player had no move it would play, or the move limit was reached. */
  readonly result: 'won' | 'stuck';
  /** Why a stuck game ended: `no move` (the player answered none) or `move limit`; null when won. */
  readonly stuckReason: 'no move' | 'move limit' | null;
  /** Completed suits removed at the end (R14), those removed before the start included. */
  readonly completed: number;
  /** Suits to complete for a win (R5). */
  readonly completeSuits: number;
  /** The moves played, in order. */
  readonly steps: readonly BlindStep[];
  /** The moves alone, in notation (the line that replays the game from the start). */
  readonly line: readonly string[];
  /** Cards still face down at the end, per column (bottom first; `7S`). */
  readonly faceDown: readonly (readonly string[])[];
  /** Cards still in the stock at the end, next deal first. */
  readonly stock: readonly (readonly string[])[];
  /** Perfect-information solves the player ran, positions they stored, plans made and moves played by its greedy fallback. */
  readonly work: { readonly solves: number; readonly positions: number; readonly plans: number; readonly fallbacks: number };
  /** Wall time of the game, milliseconds (the only field that differs between runs). */
  readonly elapsedMs: number;
}

/** A move of a blind game as it is played (BlindPlay.step): the step recorded, its number (from 1), the move and the true position it was played from. */
export interface PlayedStep {
  readonly step: BlindStep;
  readonly number: number;
  readonly move: Move;
  /** The true position before the move (for the caller's printing only: the player never sees it). */
  readonly before: Position;
}

/**
 * A blind game played one move at a time (startBlind), so that a caller can show each move as it is
 * played and stop between two moves: `step` plays the next move and returns it, or null once the game
 * has ended (won, or stuck); `game` is the ended game, the same BlindGame as playBlind's; `whyNone` is
 * the player's account of why it had no move (NoMoveWhy) when the game ended stuck with `no move`,
 * else null.
 */
export interface BlindPlay {
  step(): PlayedStep | null;
  readonly ended: boolean;
  /** Moves played so far. */
  readonly moves: number;
  /** The ended game. Throws Error if the game has not ended. */
  game(): BlindGame;
  whyNone(): NoMoveWhy | null;
}

/**
 * Starts a blind game of `start` with the player of `spec` seeded by `seed` (integer 0..2^32-1), to be
 * played move by move (BlindPlay). `step` throws Error if the player answers an illegal move (a player
 * defect, never the user's input). The game's `elapsedMs` counts the time spent in `step` (and in
 * creating the player), not the caller's time between steps.
 */
export function startBlind(start: Position, spec: PlayerSpec, seed: number, options: BlindOptions = {}): BlindPlay {
  let t0 = performance.now();
  let elapsed = 0;
  const maxMoves = options.maxMoves ?? DEFAULT_MAX_MOVES;
  const player = createPlayer(spec, seed);
  elapsed += performance.now() - t0;
  let pos = start;
  const steps: BlindStep[] = [];
  let stuckReason: BlindGame['stuckReason'] = null;
  let ended = false;
  const play = (): PlayedStep | null => {
    if (isWon(pos)) return null;
    if (steps.length >= maxMoves) {
      stuckReason = 'move limit';
      return null;
    }
    const fallbacksBefore = player.work.fallbacks;
    const answer: Move | null = player.next(observe(pos, steps.length));
    if (answer === null) {
      stuckReason = 'no move';
      return null;
    }
    const checked = resolveMove(pos, answer);
    if (!checked.ok || (answer.kind === 'move' && checked.value.kind === 'move' && checked.value.count !== answer.count)) {
      throw new Error(`blind player ${specText(spec)} answered an illegal move: ${checked.ok ? 'wrong count' : checked.error.message}`);
    }
    const move = checked.value;
    const text = moveText(pos, move);
    const words = describeMove(pos, move);
    const { position: after, effects } = applyMove(pos, move);
    const turnedUp: { column: number; card: string }[] = [];
    after.columns.forEach((c, j) => {
      const before = pos.columns[j]!;
      if (move.kind === 'deal' && j < pos.stock[0]!.length) turnedUp.push({ column: j + 1, card: makeCard(pos.stock[0]![j]!) });
      if (c.down.length < before.down.length) turnedUp.push({ column: j + 1, card: makeCard(c.up[0]!) });
    });
    const step: BlindStep = { move: text, words, turnedUp, completed: effects.removed.map((s: Suit) => 'SHDC'[s]!), fallback: player.work.fallbacks > fallbacksBefore };
    steps.push(step);
    const before = pos;
    pos = after;
    return { step, number: steps.length, move, before };
  };
  const cardText = (cs: readonly Card[]) => cs.map((c) => makeCard(c));
  return {
    step() {
      if (ended) return null;
      t0 = performance.now();
      try {
        const s = play();
        if (s === null) ended = true;
        return s;
      } finally {
        elapsed += performance.now() - t0;
      }
    },
    get ended() {
      return ended;
    },
    get moves() {
      return steps.length;
    },
    game(): BlindGame {
      if (!ended) throw new Error('startBlind: the game has not ended');
      return {
        player: specText(spec),
        seed,
        result: isWon(pos) ? 'won' : 'stuck',
        stuckReason,
        completed: pos.removed.length,
        completeSuits: pos.variant.completeSuits,
        steps,
        line: steps.map((s) => s.move),
        faceDown: pos.columns.map((c) => cardText(c.down)),
        stock: pos.stock.map(cardText),
        work: { ...player.work },
        elapsedMs: Math.round(elapsed * 10) / 10,
      };
    },
    whyNone: () => (ended && stuckReason === 'no move' ? player.whyNone() : null),
  };
}

/**
 * Plays `start` blind with the player of `spec` seeded by `seed` (integer 0..2^32-1) to its end
 * (startBlind, every move at once). Throws Error if the player answers an illegal move (a player
 * defect, never the user's input).
 */
export function playBlind(start: Position, spec: PlayerSpec, seed: number, options: BlindOptions = {}): BlindGame {
  const play = startBlind(start, spec, seed, options);
  while (play.step() !== null);
  return play.game();
}
