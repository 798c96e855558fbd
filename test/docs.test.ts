/**
 * The documentation holds together: every rule id cited (R1…, the rules of record) in the code, the
 * tests, the README and the docs is defined in docs/rules.md; rules are cited there, not in a file
 * outside the repository; the README stays a short guide (at most 330 lines); and nothing reads the
 * fixtures or rules from a folder beside the repository.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SELF = relative(ROOT, fileURLToPath(import.meta.url));
const TEXT = /\.(ts|mjs|js|md|sh|sbatch|yaml|py)$/;

/** Every text file under the given folders and files of the repository, as paths relative to it. */
function files(...roots: string[]): string[] {
  const out: string[] = [];
  const walk = (rel: string): void => {
    const st = statSync(join(ROOT, rel));
    if (st.isDirectory()) {
      for (const name of readdirSync(join(ROOT, rel))) if (name !== 'node_modules') walk(join(rel, name));
    } else if (TEXT.test(rel)) out.push(rel);
  };
  for (const r of roots) walk(r);
  return out.filter((f) => f !== SELF);
}

const read = (rel: string) => readFileSync(join(ROOT, rel), 'utf8');
const CITED = ['src', 'test', 'bench', 'deploy', 'workers', 'docs', 'README.md', 'CHANGELOG.md'];

describe('docs/rules.md', () => {
  const rules = read('docs/rules.md');
  const defined = new Set([...rules.matchAll(/^- R(\d+)\. /gm)].map((m) => Number(m[1])));

  it('defines R1 to R19, each once, in order', () => {
    const ids = [...rules.matchAll(/^- R(\d+)\. /gm)].map((m) => Number(m[1]));
    expect(ids).toEqual(Array.from({ length: 19 }, (_, i) => i + 1));
  });

  it('defines every rule id cited in the code, tests, README and docs', () => {
    const missing: string[] = [];
    let citations = 0;
    for (const f of files(...CITED)) {
      for (const m of read(f).matchAll(/\bR(\d+)\b/g)) {
        citations++;
        if (!defined.has(Number(m[1]))) missing.push(`${f}: R${m[1]}`);
      }
    }
    expect(missing).toEqual([]);
    expect(citations).toBeGreaterThan(100);
  });

  it('is where rules are cited: no citation names a RULES.md elsewhere', () => {
    const stray = files(...CITED).filter((f) => /(^|[^/])RULES\.md/.test(read(f)));
    expect(stray).toEqual([]);
  });
});

describe('the repository is self-contained', () => {
  it('nothing in src, test, bench, deploy or workers reads a folder beside the repository', () => {
    const outside = files('src', 'test', 'bench', 'deploy', 'workers').filter((f) => /\.\.\/shared\b|\bshared\/fixtures\b/.test(read(f)));
    expect(outside).toEqual([]);
  });

  it('the PySolFC fixtures the tests read are in test/fixtures/pysol', () => {
    expect(readdirSync(join(ROOT, 'test/fixtures/pysol')).sort()).toEqual([
      'spider-1suit-1.json',
      'spider-2suits-1.json',
      'spider-4suits-123456789012.json',
      'spider-4suits-14934.json',
      'spiderette-1.json',
    ]);
  });
});

describe('README.md', () => {
  const readme = read('README.md');

  it('is a short guide: at most 330 lines', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(330);
  });

  it('gives the test command that .ci/run runs', () => {
    expect(readme).toContain('npm ci && npm test && npm run test:slow');
    const ci = read('.ci/run');
    expect(ci).toMatch(/^npm ci$/m);
    expect(ci).toMatch(/^npm test$/m);
    expect(ci).toMatch(/^npm run test:slow$/m);
  });
});

describe('docs/commands.md and README.md name the versions of today', () => {
  it('the players\' version (BLIND_VERSION) and the blind table\'s stored version', async () => {
    const { BLIND_VERSION } = await import('../src/blind/version.js');
    const { SOLVER_VERSION } = await import('../src/solver/types.js');
    expect(read('docs/commands.md')).toContain(`\`BLIND_VERSION\` (\`'${BLIND_VERSION}'\`;`);
    expect(read('README.md').replace(/\s+/g, ' ')).toContain(`players' version ${BLIND_VERSION} with solver ${SOLVER_VERSION}, stored as \`blind-${BLIND_VERSION}/solver-${SOLVER_VERSION}\``);
  });

  it("the solver's version in the example of --version", async () => {
    const { SOLVER_VERSION } = await import('../src/solver/types.js');
    expect(read('docs/commands.md')).toContain(`\`0.1.0 (solver ${SOLVER_VERSION})\``);
  });
});
