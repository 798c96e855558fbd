#!/usr/bin/env node
// Compares two spidersolve results databases the way the cluster checks need: the same results row for
// row (every column of `results` but the timing and bookkeeping ones: id, elapsed_ms, run_id,
// created_at), the same links of deals to studies (study name, deal, place in the plan, name), and
// the same `spidersolve report --format json` with its timing fields left out (medianMs, p95Ms). Exit 0 when equal, 1 (with the first differences) when not, 2 on bad use.
//
//   node deploy/compare.mjs merged.sqlite single.sqlite
//
// The report is made by the spidersolve command in $SPIDERSOLVE (default: this checkout's
// bin/spidersolve.js).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';

const IGNORED = new Set(['id', 'elapsed_ms', 'run_id', 'created_at']);
const TIMING = new Set(['medianMs', 'p95Ms']);

const [a, b] = process.argv.slice(2);
if (!a || !b) {
  console.error('usage: node deploy/compare.mjs A.sqlite B.sqlite');
  process.exit(2);
}
// each must be a spidersolve results database: one line naming the one that is not (a missing
// file too, not a stack trace)
for (const path of [a, b]) {
  let why = null;
  try {
    const db = new Database(path, { readonly: true, fileMustExist: true });
    try {
      if (!db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'results'").get()) why = 'not a spidersolve results database (no results table)';
    } finally {
      db.close();
    }
  } catch (e) {
    why = e instanceof Error ? e.message : String(e);
  }
  if (why !== null) {
    console.error(`compare.mjs: ${path}: ${why}`);
    process.exit(2);
  }
}

function rows(path) {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const cols = db.prepare("SELECT name FROM pragma_table_info('results')").pluck().all().filter((c) => !IGNORED.has(c));
    return db.prepare(`SELECT ${cols.map((c) => `"${c}"`).join(', ')} FROM results`).all().map((r) => JSON.stringify(r)).sort();
  } finally {
    db.close();
  }
}

// every deal linked to its study at its place in the plan (schema 2's study_deals), by study name
function links(path) {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const has = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'study_deals'").get();
    if (!has) return [];
    return db.prepare('SELECT s.name AS study, d.deal, d.ord, d.name FROM study_deals d JOIN studies s ON s.id = d.study_id ORDER BY s.name, d.ord').all().map((r) => JSON.stringify(r));
  } finally {
    db.close();
  }
}

function report(path) {
  const cmd = (process.env.SPIDERSOLVE || `node ${fileURLToPath(new URL('../bin/spidersolve.js', import.meta.url))}`).split(/\s+/);
  const out = execFileSync(cmd[0], [...cmd.slice(1), 'report', '--db', path, '--format', 'json'], { encoding: 'utf8' });
  return JSON.parse(out).map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => !TIMING.has(k))));
}

const ra = rows(a);
const rb = rows(b);
const sa = new Set(ra);
const sb = new Set(rb);
const onlyA = ra.filter((r) => !sb.has(r));
const onlyB = rb.filter((r) => !sa.has(r));
let bad = false;
const repA = JSON.stringify(report(a));
const repB = JSON.stringify(report(b));
if (onlyA.length || onlyB.length || ra.length !== rb.length) {
  bad = true;
  console.log(`results differ: ${ra.length} rows in ${a}, ${rb.length} in ${b}; ${onlyA.length} only in the first, ${onlyB.length} only in the second`);
  for (const r of onlyA.slice(0, 3)) console.log(`  only in ${a}: ${r}`);
  for (const r of onlyB.slice(0, 3)) console.log(`  only in ${b}: ${r}`);
} else {
  console.log(`results: the same ${ra.length} row${ra.length === 1 ? '' : 's'} (every column but ${[...IGNORED].join(', ')})`);
}
const la = links(a);
const lb = links(b);
if (JSON.stringify(la) !== JSON.stringify(lb)) {
  bad = true;
  const sb2 = new Set(lb);
  console.log(`study links differ: ${la.length} in ${a}, ${lb.length} in ${b}; first only in ${a}: ${la.find((r) => !sb2.has(r)) ?? 'none'}`);
} else {
  console.log(`study links: the same ${la.length} (study, deal, place in the plan, name)`);
}
if (repA !== repB) {
  bad = true;
  console.log(`reports differ:\n  ${a}: ${repA}\n  ${b}: ${repB}`);
} else {
  const n = JSON.parse(repA).length;
  console.log(`report: the same ${n} row${n === 1 ? '' : 's'} (timings aside)`);
}
process.exit(bad ? 1 : 0);
