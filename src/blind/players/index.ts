/**
 * Player specs: `greedy`, `sample`, `sample:k=16,budget=50000,plan=prefix` — a name, then optional
 * `key=value` parameters after a colon, comma-separated. Parsed into a typed spec with every default
 * filled in; `specText` writes the canonical form (every parameter, fixed order) that is stored with a
 * result, so two specs that mean the same player have the same text.
 */
import { InputError, quoteInput, wholeNumber } from '../../game/errors.js';
import { createGreedy, IDLE_LIMIT } from './greedy.js';
import { createSample, type SampleSettings } from './sample.js';
import type { BlindPlayer } from './types.js';

export type { BlindPlayer } from './types.js';
export type { SampleSettings } from './sample.js';

/** A parsed player spec. */
export type PlayerSpec = { readonly name: 'greedy' } | ({ readonly name: 'sample' } & SampleSettings);

/**
 * The sample player's defaults, chosen by measurement on Spider seeds 10001+ (CPU seconds a game, one
 * core): the cheapest setting measured in four suits (SP4 10001-10003: 16.8-62.5 s, mean 33 s a
 * game, near the 30 s of issue 42). hop=3 throughout won 10 of 10 one-suit deals (SP1 10001-10010)
 * where hop=0 won 7, but cost 44 s on a four-suit deal. The HOP check once the stock is empty
 * (endhop=3) costs little, for the solves of an end game are small: on SP1 10001-10040 it won 37
 * where endhop=0 won 35, on SP2 10001-10040 20 where endhop=0 won 14 (endhop=8: 20; endhop=3 with
 * endk=16: 18), and it left SP4 10001-10030 as they were (docs/figures.md, players' end game). A
 * greedy stretch of 20 moves (stretch=20, against greedy's own 200) won the same 37 games of SP1
 * 10001-10040 in 6,063 moves where 200 took 10,973 (docs/figures.md, the greedy stretch).
 */
export const SAMPLE_DEFAULTS: SampleSettings = Object.freeze({ k: 8, budget: 20_000, plan: 'prefix' as const, escalate: 0, hop: 0, eval: 'progress' as const, endhop: 3, endk: 0, stretch: 20 });

/** Names of the players, for help texts. */
export const PLAYER_NAMES = ['greedy', 'sample'] as const;

/** Bounds of the sample player's whole-number parameters. */
const SAMPLE_BOUNDS = { k: [1, 1000], budget: [100, 10_000_000], escalate: [0, 4], hop: [0, 100], endhop: [0, 100], endk: [0, 1000], stretch: [1, IDLE_LIMIT] } as const;

/** Help text of a `--player` option. */
export const PLAYER_HELP =
  `blind player: greedy, or sample[:k=N,budget=N,plan=prefix|move,escalate=N,hop=N,eval=progress|win,endhop=N,endk=N,stretch=N] (defaults k=${SAMPLE_DEFAULTS.k}, budget=${SAMPLE_DEFAULTS.budget}, plan=${SAMPLE_DEFAULTS.plan}, escalate=${SAMPLE_DEFAULTS.escalate}, hop=${SAMPLE_DEFAULTS.hop}, eval=${SAMPLE_DEFAULTS.eval}, endhop=${SAMPLE_DEFAULTS.endhop}, endk=${SAMPLE_DEFAULTS.endk}, stretch=${SAMPLE_DEFAULTS.stretch}; ` +
  `k: completions of the unseen cards solved per plan, ${SAMPLE_BOUNDS.k[0]}..${SAMPLE_BOUNDS.k[1]}; budget: positions per solve, ${SAMPLE_BOUNDS.budget[0]}..${SAMPLE_BOUNDS.budget[1]}; escalate: votes again with 4x the budget when no completion is won, 0..4 times; hop: leading plans each played and solved in every completion, the one won most played, 0 (off)..100; eval: what a completion not won is worth, its progress before the next deal (progress) or nothing (win); endhop: the HOP check's leading plans once the stock is empty, 0..100; endk: completions drawn per plan once the stock is empty, 1..1000, or 0 for k; stretch: moves of the greedy fallback without a card turned up, after which it only deals or fills an empty column for the deal, and with no deal left stops (the game ends stuck), ${SAMPLE_BOUNDS.stretch[0]}..${SAMPLE_BOUNDS.stretch[1]})`;

/**
 * Parses a player spec (case-insensitive). Throws InputError `bad-option`, one line naming the spec and
 * the fault: an unknown player, a parameter the player does not take, a parameter given twice, a value
 * that is not a whole number in range, a malformed `key=value`, or an empty parameter (named by its
 * place: `parameter 2 of 3 is empty`). Blanks around the colon, the commas and each `=` are ignored
 * alike; specText writes the canonical form, without them.
 */
export function parsePlayerSpec(text: string): PlayerSpec {
  const t = String(text).trim().toLowerCase();
  const colon = t.indexOf(':');
  // blanks around the colon, the commas and each `=` are dropped alike (`sample : k = 1 , hop=2`)
  const name = colon < 0 ? t : t.slice(0, colon).trim();
  const rest = colon < 0 ? null : t.slice(colon + 1);
  const bad = (why: string) => new InputError('bad-option', `player ${quoteInput(String(text))}: ${why}`);
  if (t === '') throw bad('empty; give greedy or sample[:key=value,…]');
  // `greedy,`, `sample;`: a stray mark after the player's name
  const stray = colon < 0 ? /^(greedy|sample)\s*([,;])$/.exec(name) : null;
  if (stray) throw bad(`a stray "${stray[2]}" after the player's name; write ${stray[1]}${stray[1] === 'sample' ? ' or sample:key=value,…' : ''}`);
  // `sample k=8`, `greedy,x`: a player's name and its parameters with no colon between them
  const glued = colon < 0 ? /^(greedy|sample)[\s,;]+\S/.exec(name) : null;
  if (glued) {
    // the parameters as they would read with a colon before them and commas between them, if they are key=value pairs
    const params = name.slice(glued[0].length - 1).trim().replace(/\s*=\s*/g, '=').split(/[\s,;]+/).filter(Boolean);
    const hint = params.every((q) => /^[a-z]+=[^=]+$/.test(q)) ? `sample:${params.join(',')}` : 'sample:key=value,…';
    throw bad(glued[1] === 'greedy' ? `greedy takes no parameters (got ${quoteInput(name.slice(glued[0].length - 1).trim())}); write greedy`
      : `unknown player ${quoteInput(name)}; a colon goes between the player and its parameters (${hint})`);
  }
  if (name !== 'greedy' && name !== 'sample') throw bad(`unknown player ${quoteInput(name)}; use greedy or sample[:k=N,budget=N,plan=prefix|move,escalate=N,hop=N,eval=progress|win,endhop=N,endk=N,stretch=N]`);
  const params = new Map<string, string>();
  if (rest !== null) {
    if (rest.trim() === '') throw bad(name === 'greedy' ? 'nothing after the colon, and greedy takes no parameters; drop the colon' : 'nothing after the colon; give key=value parameters or drop the colon');
    const parts = rest.split(',');
    for (const [i, part] of parts.entries()) {
      // `k=8,,budget=100`, `k=8,`: named by its place, for an empty one has nothing else to show
      if (part.trim() === '') throw bad(`parameter ${i + 1} of ${parts.length} is empty (${i === 0 ? 'a comma right after the colon' : i === parts.length - 1 ? 'a comma at the end' : 'two commas in a row'}); separate key=value parameters with single commas`);
      const eq = part.indexOf('=');
      // `budget=1,000`: a thousands separator read as the comma between two parameters
      const grouped = eq < 0 && i > 0 ? /^\s*([a-z]+)\s*=\s*(\d+(?:\s*,\s*\d{3})+)(?=\s*(?:,|$))/.exec(parts.slice(i - 1).join(',')) : null;
      if (grouped) {
        const [, key, number] = grouped;
        throw bad(`parameter ${quoteInput(`${key}=${number}`)}: write numbers without thousands separators (${key}=${number!.replace(/[,\s]/g, '')}); commas separate parameters`);
      }
      if (eq < 0) throw bad(`parameter ${quoteInput(part.trim())} is not key=value`);
      const key = part.slice(0, eq).trim();
      if (key === '') throw bad(`parameter ${i + 1}, ${quoteInput(part.trim())}, has no key before its =; write key=value`);
      const value = part.slice(eq + 1).trim();
      // `k=8 budget=1000`: two parameters with a blank between them, not a comma
      if (/[\s;]\S*=/.test(value)) throw bad(`parameter ${quoteInput(part.trim())} holds two; separate key=value parameters with commas`);
      if (params.has(key)) throw bad(`parameter ${quoteInput(key)} given twice`);
      params.set(key, value);
    }
  }
  if (name === 'greedy') {
    const first = [...params.keys()][0];
    if (first !== undefined) throw bad(`greedy takes no parameters (got ${quoteInput(first)})`);
    return { name: 'greedy' };
  }
  const out: { -readonly [K in keyof SampleSettings]: SampleSettings[K] } = { ...SAMPLE_DEFAULTS };
  for (const [key, value] of params) {
    if (key === 'k' || key === 'budget' || key === 'escalate' || key === 'hop' || key === 'endhop' || key === 'endk' || key === 'stretch') {
      const [lo, hi] = SAMPLE_BOUNDS[key];
      // the rule of whole-number options too (errors.ts wholeNumber): digits alone, no sign
      const n = wholeNumber(value, lo, hi);
      if ('why' in n) throw bad(`${key} ${quoteInput(value)}: ${n.why}`);
      out[key] = n.value;
    } else if (key === 'plan') {
      if (value !== 'prefix' && value !== 'move') throw bad(`plan ${quoteInput(value)}: use prefix or move`);
      out.plan = value;
    } else if (key === 'eval') {
      if (value !== 'win' && value !== 'progress') throw bad(`eval ${quoteInput(value)}: use win or progress`);
      out.eval = value;
    } else throw bad(`sample takes k, budget, plan, escalate, hop, eval, endhop, endk and stretch, not ${quoteInput(key)}`);
  }
  return { name: 'sample', ...out };
}

/**
 * The canonical text of a spec, stored with results and read back by the workers that play it:
 * `greedy`, `sample:k=8,budget=20000,plan=prefix,escalate=0,hop=0,eval=progress,endhop=3`.
 * Every parameter is written, in a fixed order, but `endk` when 0 and `stretch` when 20 (their
 * defaults), so `parsePlayerSpec(specText(s))` is `s`. Results stored before `endhop` existed
 * (players' version 3) have texts without it, and mean endhop=0; results stored under players'
 * version 3 and before were played with greedy's own stretch of 200 (blind/version.ts), whatever
 * their text says.
 */
export function specText(spec: PlayerSpec): string {
  return spec.name === 'greedy' ? 'greedy' : `sample:k=${spec.k},budget=${spec.budget},plan=${spec.plan},escalate=${spec.escalate},hop=${spec.hop},eval=${spec.eval},endhop=${spec.endhop}${spec.endk > 0 ? `,endk=${spec.endk}` : ''}${spec.stretch !== SAMPLE_DEFAULTS.stretch ? `,stretch=${spec.stretch}` : ''}`;
}

/**
 * A fresh player for one game, from its spec and its own seed (an integer 0..2^32-1; the player's
 * random generator is pure-rand's xoroshiro128plus of it). The player sees only Observations.
 */
export function createPlayer(spec: PlayerSpec, seed: number): BlindPlayer {
  return spec.name === 'greedy' ? createGreedy() : createSample(spec, seed);
}
