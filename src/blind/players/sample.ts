/**
 * The `sample` blind player: determinisation (hindsight optimisation). To choose what to do it draws
 * `k` completions of the unseen cards consistent with what it sees (observation.ts completion: the
 * unseen multiset shuffled into the face-down places and the stock), solves each with the
 * perfect-information solver (../../solver/solve.ts) at a budget of `budget` positions, and votes.
 *
 * - plan=prefix (default): each winning line is cut after its first move that turns up a card (a deal,
 *   or a move that uncovers a face-down card, R11, R12, R15). Up to that move the line's moves and the
 *   views they pass through are the same in every completion, so the cut line is a plan playable in
 *   the true game. The plan most lines share wins the vote; the player plays it to its end and plans
 *   again from the new view.
 * - plan=move: the vote is on the first move of each winning line alone; the player plans again after
 *   every move (k solves a move: slower).
 * Two plans that reach the same view and then play the same
 * move are one candidate. Ties (equal votes) go to the plan whose voters stored fewer positions in all (the easier), then to
 * the one first met (lowest sample index). The vote stops early once the leader cannot be caught by
 * the samples left (the same plan as a full vote, fewer solves). Completions come from the player's own
 * generator (pure-rand xoroshiro128plus of the seed), so a game is a function of the deal, the spec and
 * the seed. When no completion is won within the budget, the vote is run again on fresh completions
 * with 4 times the budget, up to `escalate` times (not when every completion was proven lost, nor
 * when the plan before also found no won completion: escalation resumes after a plan that won).
 *
 * - eval=win: only won completions vote; when none is won, the player plays as `greedy` for that move.
 * - eval=progress (default): a won completion's vote weighs WIN_VOTE; a completion not won votes for
 *   the plan its progress line begins with (the solver's best position before its next deal,
 *   SolveResult.progress), weighing the line's gain in evaluation points. And the player deals only
 *   when nothing can be gained without dealing: when the plan voted for ends in a deal (or no plan was
 *   voted for), k fresh completions are drawn with their stock taken away and solved for their
 *   progress lines (as every solve of the player, without the solver's dead ends: PLAYER_TUNING);
 *   the plan that gained most in all is played instead, if any gained. In hindsight a deal costs
 *   nothing, for each completion knows the cards it brings; in the true game a deal buries ten
 *   columns under unknown cards, and the usual advice to players is to turn up and tidy
 *   what can be before dealing. A progress plan that leaves fewer cards on the table than columns
 *   while the stock holds a deal gets no vote (strandsStock: R12, the stock could never be dealt).
 *
 * A view met again since the last card was turned up stops the solving until a card is turned up:
 * the player deals if it may, else fills an empty column that blocks the deal (greedy.ts
 * fillForDeal), else plays greedy's move; after IDLE_PLANS plans without a card turned up it plays
 * greedy's moves, without solves, until one is. That greedy (every move the player plays without a
 * vote) only deals, or fills an empty column for the deal, once it has gone `stretch` moves without a
 * card turned up (default 20), and with no deal left stops; not after greedy's own
 * IDLE_LIMIT of 200: in one suit, greedy otherwise shuffles runs between empty columns for up to 200
 * moves before the next deal, which lengthens a game and wins nothing (docs/figures.md).
 *
 * - hop=N (N > 0): the vote then only nominates: the N leading plans (in the vote's order) are each
 *   played in every sample and solved from the position they lead to; the plan won in most samples
 *   is played (ties: fewer positions stored by those solves, then the vote's order). Every sample is
 *   drawn (no early stop). This is hindsight optimisation proper: a plan is judged by how often the
 *   game stays winnable after it, not by how often it is some sample's first choice.
 * - endhop=N, endk=K: once the stock is empty (R12: no deal left) the check runs with max(hop, N)
 *   leading plans, and K completions are drawn a plan (0 = k). An end game's solves are small, and it
 *   is where a plan that one completion wins with most often loses in the others (docs/figures.md:
 *   most one- and two-suit losses came after the last deal).
 *
 * Known weakness (hindsight optimisation): each completion is solved as if every card were known, so
 * the player values lines that need luck it cannot see coming, and never plays to gain information.
 */
import { xoroshiro128plus } from 'pure-rand';
import type { Card } from '../../game/cards.js';
import { shuffleInPlace } from '../../game/deal.js';
import type { Position } from '../../game/position.js';
import type { Move } from '../../game/move.js';
import { parseMove } from '../../game/move.js';
import { applyMove, resolveMove, stockStranded } from '../../game/rules.js';
import { solve, type SolveTuning } from '../../solver/solve.js';
import { completion, hiddenCount, observationKey, observedMoves, observe, unseenList, type Observation } from '../observation.js';
import { createGreedy, fillForDeal } from './greedy.js';
import type { BlindPlayer } from './types.js';

/** Settings of a sample player (players/index.ts parses them from `sample:k=…,budget=…,plan=…`). */
export interface SampleSettings {
  /** Completions drawn per plan, 1..1000. */
  readonly k: number;
  /** Position budget of each completion's solve, 100..10,000,000. */
  readonly budget: number;
  /** What the vote is on: the line up to its first card turned up (`prefix`) or its first move (`move`). */
  readonly plan: 'prefix' | 'move';
  /**
   * When no completion is won, vote again with 4 times the budget, up to this many times (0..4), before
   * falling back to greedy.
   */
  readonly escalate: number;
  /**
   * Hindsight-optimisation check of the vote (0 = none): the `hop` leading plans are each played in
   * every sample and solved from there (same budget); the plan won in most samples is played.
   */
  readonly hop: number;
  /**
   * How a completion's solve votes: `win` (only a won completion votes, for the plan its winning line
   * begins with) or `progress` (a won completion votes WIN_VOTE; one not won votes, for the plan its
   * progress line begins with, the line's gain in evaluation points: SolveResult.progress).
   */
  readonly eval: 'win' | 'progress';
  /**
   * The HOP check once the stock is empty (R12: no deal left): `max(hop, endhop)` leading plans are
   * each played in every sample and solved from there. 0 = the same as `hop` throughout.
   */
  readonly endhop: number;
  /** Completions drawn per plan once the stock is empty (0 = `k`). */
  readonly endk: number;
  /**
   * Moves its greedy fallback plays without a card turned up, after which it only deals or fills an
   * empty column for the deal, and with no deal left stops (greedy.ts createGreedy's idleLimit),
   * 1..IDLE_LIMIT; IDLE_LIMIT (200) is greedy's own.
   */
  readonly stretch: number;
}

/**
 * What a won completion's vote weighs under eval=progress: more than any progress line's gain (a
 * position's whole score is a few hundred points at most), so a plan some completion wins with is
 * played before any plan that only makes progress.
 */
export const WIN_VOTE = 1000;

/**
 * How the player's solves search: without the solver's dead ends (SolverState.deadEnd, solver 3.9.0).
 * The dead ends are a reduction for proving a deal lost; they leave every won answer as it is but
 * change which positions the beam keeps and expands, and so the progress lines a completion that is not
 * won votes with. In the vote without the stock they would stop the tidying lines the vote looks for
 * (a position from which no card can turn up is a dead end once the stock is taken away, though in
 * the true game a deal is still to come). Measured on tuning seeds, without them in every solve against
 * without them in that vote only: four-suit Spider 10001–10030, 6 won against 3; four-suit Spiderette
 * 10001–10100, 11 against 6 (docs/figures.md, players' version 7).
 */
export const PLAYER_TUNING: SolveTuning = { deadEnds: false };

/** One candidate plan in a vote. */
interface Candidate {
  readonly moves: Move[];
  /** Votes: a won sample's count 1 (WIN_VOTE under eval=progress), a progress line's its gain. */
  votes: number;
  /** Voters whose solve was won. */
  wins: number;
  positions: number;
  readonly first: number;
  /** Indices of the samples whose winning line gave this plan. */
  readonly voters: number[];
}

/** The vote's order: more votes, then fewer positions stored by the voters' solves, then the first met. */
function byVote(a: Candidate, b: Candidate): number {
  return b.votes - a.votes || a.positions - b.positions || a.first - b.first;
}

/**
 * The moves of a winning line (notation) played in its completion, cut as `plan` says, and the plan's
 * vote key: the visible state just before its last move and that move (so two plans that reach the
 * same view by moves in another order, then turn up the same card, are one candidate).
 */
function cutLine(world: ReturnType<typeof completion>, line: readonly string[], plan: SampleSettings['plan']): { moves: Move[]; key: string; end: Position } {
  const out: Move[] = [];
  let pos = world;
  let key = '';
  for (const text of line) {
    const spec = parseMove(text, pos.columns.length);
    if (!spec.ok) throw new Error(`solver line: ${spec.error.message}`);
    const r = resolveMove(pos, spec.value);
    if (!r.ok) throw new Error(`solver line: ${r.error.message}`);
    const { position, effects } = applyMove(pos, r.value);
    out.push(r.value);
    key = `${observationKey(observe(pos))} ${moveKey(r.value)}`;
    pos = position;
    if (plan === 'move' || r.value.kind === 'deal' || effects.flips > 0) break;
  }
  return { moves: out, key, end: pos };
}

/**
 * Adds a sample's vote to `votes`: its line (played in `world`) cut as `plan` says, for the candidate
 * of that plan, weighing `v.weight`; a line not won whose plan strands the stock (strandsStock, with
 * `stockDeals` deals left in the true game) gets no vote. Returns whether the vote was counted.
 */
function tally(votes: Map<string, Candidate>, world: Position, line: readonly string[], plan: SampleSettings['plan'], v: { weight: number; won: boolean; positions: number; sample: number }, stockDeals: number): boolean {
  const { moves, key, end } = cutLine(world, line, plan);
  if (!v.won && strandsStock(end, stockDeals)) return false;
  const c = votes.get(key);
  if (c) {
    c.votes += v.weight;
    if (v.won) c.wins++;
    c.positions += v.positions;
    c.voters.push(v.sample);
  } else votes.set(key, { moves, votes: v.weight, wins: v.won ? 1 : 0, positions: v.positions, first: v.sample, voters: [v.sample] });
  return true;
}

/**
 * Does a plan end where the stock can never be dealt again (R12: fewer cards on the table than
 * columns, with `stockDeals` deals left in the true game)? Such a plan is lost unless the cards on the
 * table complete every suit left, which a won line shows; a progress line's plan to it gets no vote.
 */
function strandsStock(end: Position, stockDeals: number): boolean {
  let cards = 0;
  for (const c of end.columns) cards += c.down.length + c.up.length;
  return stockStranded(cards, end.columns.length, stockDeals);
}

function moveKey(m: Move): string {
  return m.kind === 'deal' ? 'd' : `${m.from}-${m.to}x${m.count}`;
}

/**
 * Plans a sample player makes without a card turned up before it stops solving and plays greedy's
 * moves until one is (greedy deals when no move helps): a plan that turns none up only tidies the visible cards, and long
 * stretches of them (an end game with empty columns and the last deal to come) cost many solves for
 * little.
 */
export const IDLE_PLANS = 8;

/**
 * Creates a sample player with its own generator seeded by `seed` (an integer; its 32 low bits are
 * used). `tuning`: how its solves search (default PLAYER_TUNING; another for measurement only).
 */
export function createSample(settings: SampleSettings, seed: number, tuning: SolveTuning = PLAYER_TUNING): BlindPlayer {
  const rng = xoroshiro128plus(seed | 0);
  const greedy = createGreedy(settings.stretch);
  const work = { solves: 0, positions: 0, plans: 0, fallbacks: 0 };
  // the plan being played: its moves and the move number at which each is due
  let plan: Move[] = [];
  let due = -1;
  // did the last plan find no won sample (greedy's move was played)?
  let lastFailed = false;
  // the views met since the last card was turned up (their count of hidden cards: seenHidden)
  const seen = new Set<string>();
  let seenHidden = -1;

  const draw = (cards: Card[]): Card[] => shuffleInPlace(cards.slice(), rng);

  const progress = settings.eval === 'progress';
  // a won completion's vote
  const winVote = progress ? WIN_VOTE : 1;

  const replan = (obs: Observation): Move[] | null => {
    work.plans++;
    // after a plan that no sample won, only the first round: a hopeless stretch does not pay for
    // escalation at every card turned up
    const rounds = lastFailed ? 0 : settings.escalate;
    // the plan of the last round's progress vote (eval=progress), played when no round wins
    let fallback: Move[] | null = null;
    for (let round = 0; round <= rounds; round++) {
      const p = vote(obs, settings.budget * 4 ** round);
      if (p === 'all lost') break;
      if (p && p.won) {
        lastFailed = false;
        return p.moves;
      }
      if (p) fallback = p.moves;
    }
    lastFailed = true;
    return fallback;
  };

  // the plan voted for, and whether a won sample voted for it; null when no sample voted; 'all lost'
  // when every sample was proven lost (R19: a larger budget cannot win them, so the vote is not run again)
  const vote = (obs: Observation, budget: number): { moves: Move[]; won: boolean } | null | 'all lost' => {
    let lost = 0;
    let won = 0;
    const unseen = unseenList(obs);
    const votes = new Map<string, Candidate>();
    const worlds: Position[] = [];
    const end = obs.stockDeals.length === 0;
    const hop = end ? Math.max(settings.hop, settings.endhop) : settings.hop;
    const k = end && settings.endk > 0 ? settings.endk : settings.k;
    for (let i = 0; i < k; i++) {
      const world = completion(obs, draw(unseen));
      worlds.push(world);
      const r = solve(world, { maxPositions: budget, progress }, tuning);
      work.solves++;
      work.positions += r.positions;
      if (r.status === 'lost') lost++;
      let line: readonly string[] = [];
      let weight = 0;
      if (r.status === 'won') {
        won++;
        line = r.line;
        weight = winVote;
      } else if (r.status === 'undecided' && r.progress && r.progress.gain > 0) {
        line = r.progress.line;
        weight = r.progress.gain;
      }
      if (line.length > 0 && !tally(votes, world, line, settings.plan, { weight, won: r.status === 'won', positions: r.positions, sample: i }, obs.stockDeals.length)) continue;
      // stop once the leader cannot be caught by the samples left (a HOP check needs every sample)
      const ranked = [...votes.values()].sort((a, b) => b.votes - a.votes);
      const left = k - 1 - i;
      if (hop === 0 && ranked.length > 0 && ranked[0]!.votes > (ranked[1]?.votes ?? 0) + left * winVote) break;
    }
    if (votes.size === 0) return lost === k ? 'all lost' : null;
    const ranked = [...votes.values()].sort(byVote);
    if (hop === 0 || ranked.length === 1 || won === 0) return { moves: ranked[0]!.moves, won: won > 0 };
    // HOP: each of the leading plans played in every sample, and solved from where it leads
    let best: { c: Candidate; wins: number; positions: number } | null = null;
    for (const c of ranked.slice(0, hop)) {
      let wins = c.wins;
      let positions = c.positions;
      worlds.forEach((world, j) => {
        if (c.voters.includes(j)) return;
        let w = world;
        for (const m of c.moves) w = applyMove(w, m).position;
        const r = solve(w, { maxPositions: budget }, tuning);
        work.solves++;
        work.positions += r.positions;
        positions += r.positions;
        if (r.status === 'won') wins++;
      });
      if (!best || wins > best.wins || (wins === best.wins && positions < best.positions)) best = { c, wins, positions };
    }
    return { moves: best!.c.moves, won: true };
  };

  // the plan that makes most progress without dealing: each of k fresh completions, its stock taken
  // away, solved for its progress line; the plan whose lines gained most in all; null if none gained
  const noDealVote = (obs: Observation): Move[] | null => {
    const unseen = unseenList(obs);
    const votes = new Map<string, Candidate>();
    for (let i = 0; i < settings.k; i++) {
      const full = completion(obs, draw(unseen));
      const world: Position = { ...full, stock: [] };
      const r = solve(world, { maxPositions: settings.budget, progress: true }, tuning);
      work.solves++;
      work.positions += r.positions;
      if (!r.progress || r.progress.gain <= 0 || r.progress.line.length === 0) continue;
      tally(votes, world, r.progress.line, settings.plan, { weight: r.progress.gain, won: false, positions: r.positions, sample: i }, obs.stockDeals.length);
    }
    const ranked = [...votes.values()].sort(byVote);
    return ranked[0]?.moves ?? null;
  };

  // a move played without a vote (counted in work.fallbacks; no move is not counted)
  const fallback = (m: Move | null): Move | null => {
    if (m) work.fallbacks++;
    return m;
  };

  // did the player answer no move last? (only when its greedy fallback had none: greedy says why)
  let none = false;
  const next = (obs: Observation): Move | null => {
    if (plan.length > 0 && due === obs.moves) {
      due++;
      return plan.shift()!;
    }
    // a view met again since the last card turned up: the plans are going round in a circle
    const hidden = hiddenCount(obs);
    if (hidden !== seenHidden) {
      seen.clear();
      seenHidden = hidden;
    }
    const view = observationKey(obs);
    if (seen.has(view)) {
      // a view met again since the last card was turned up (the plans go round in a circle): no
      // more solves until a card is turned up; deal if it may (R12), else fill an empty column for
      // the deal, else greedy's move
      plan = [];
      return fallback(observedMoves(obs).find((m) => m.kind === 'deal') ?? fillForDeal(obs) ?? greedy.next(obs));
    }
    if (seen.size >= IDLE_PLANS) {
      // IDLE_PLANS plans made since the last card was turned up: greedy's moves, without solves,
      // until one is (greedy deals when no move helps)
      plan = [];
      return fallback(greedy.next(obs));
    }
    seen.add(view);
    let p = replan(obs);
    if (progress && (!p || p[p.length - 1]!.kind === 'deal')) p = noDealVote(obs) ?? p;
    if (!p) {
      plan = [];
      return fallback(greedy.next(obs));
    }
    plan = p.slice(1);
    due = obs.moves + 1;
    return p[0]!;
  };
  return {
    work,
    whyNone: () => (none ? greedy.whyNone() : null),
    next(obs: Observation): Move | null {
      const m = next(obs);
      none = m === null;
      return m;
    },
  };
}
