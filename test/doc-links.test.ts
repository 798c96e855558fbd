/**
 * The links between the project's own pages: every relative link of README.md, CHANGELOG.md and
 * docs/*.md names a file of the repository, and a `#fragment` a heading of that page, slugged as
 * GitHub slugs headings (github-slugger: lowercase, punctuation dropped, spaces to hyphens, a repeated
 * heading `-1`, `-2`, …) or an explicit `<a id="…">` anchor.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import GithubSlugger from 'github-slugger';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const PAGES = ['README.md', 'CHANGELOG.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** The text of a page without its fenced code blocks (a `[x](y)` in a code sample is not a link). */
function prose(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
}

/** The fragments a page answers to: its headings' slugs, and explicit anchors. */
function anchorsOf(text: string): Set<string> {
  const slugger = new GithubSlugger();
  const out = new Set<string>();
  for (const line of prose(text).split('\n')) {
    const h = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    // a heading's slug is made from its text as shown: inline code marks and link targets dropped
    if (h) out.add(slugger.slug(h[1]!.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/`/g, '')));
  }
  for (const m of text.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) out.add(m[1]!);
  return out;
}

/** The relative links of a page: `[text](target)` outside code, not a web or mail address. */
function linksOf(text: string): string[] {
  const out: string[] = [];
  // inline code spans are not links either
  const body = prose(text).replace(/`[^`\n]*`/g, '');
  for (const m of body.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const target = m[1]!;
    if (/^(https?:|mailto:)/.test(target)) continue;
    out.push(target);
  }
  return out;
}

describe('links between the pages', () => {
  it.each(PAGES)('every relative link of %s resolves, and its #fragment names a heading there', (page) => {
    const text = readFileSync(join(ROOT, page), 'utf8');
    const broken: string[] = [];
    for (const target of linksOf(text)) {
      const [path, fragment] = target.split('#', 2) as [string, string | undefined];
      const file = path === '' ? join(ROOT, page) : resolve(dirname(join(ROOT, page)), decodeURIComponent(path));
      if (!existsSync(file)) {
        broken.push(`${target}: no file ${relative(ROOT, file)}`);
        continue;
      }
      if (fragment !== undefined && file.endsWith('.md') && !anchorsOf(readFileSync(file, 'utf8')).has(decodeURIComponent(fragment))) {
        broken.push(`${target}: no heading #${fragment} in ${relative(ROOT, file)}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('slugs headings as GitHub does', () => {
    expect([...anchorsOf('# Blind play\n## `spidersolve batch`\n### Players\' version 7: no dead ends, 2026-12-07\n## Blind play\n')]).toEqual([
      'blind-play', 'spidersolve-batch', 'players-version-7-no-dead-ends-2026-12-07', 'blind-play-1',
    ]);
  });
});
