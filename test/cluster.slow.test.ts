/**
 * A study run as shards and merged gives exactly what one run of it gives: as N processes with
 * --shard K/N, through the GNU parallel recipe (deploy/parallel/shards.sh, for real: Debian's
 * `parallel` must be installed; .ci/run installs it), and through the Kubernetes manifests' own
 * commands (deploy/k8s/*.yaml, run here with JOB_COMPLETION_INDEX set as the Job controller sets it,
 * since there is no cluster here). These run the compiled build, as the recipes do; beforeAll
 * compiles it. The Slurm recipe is checked by deploy/slurm/check.sh, by hand (see docs/cluster.md).
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(ROOT, 'bin', 'spidersolve.js');
/** The study of the recipes' examples and of deploy/k8s/shard-job.yaml: 80 deals, a few seconds. */
const STUDY = ['--game', 'spiderette', '--suits', '1,2', '--seeds', '1-40', '--max-positions', '20000'];
/** Columns of `results` that differ between runs of the same study. */
const IGNORED = new Set(['id', 'elapsed_ms', 'run_id', 'created_at']);

let dir: string;
let single: string;

interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

function run(cmd: string, args: string[], env: Record<string, string | undefined> = {}): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const full: Record<string, string | undefined> = { ...process.env, ...env };
    for (const k of Object.keys(full)) if (full[k] === undefined) delete full[k];
    const child = spawn(cmd, args, { cwd: ROOT, env: full, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** Every result row with the columns that must be equal (all but IGNORED), sorted. */
function resultRows(path: string): Record<string, unknown>[] {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const cols = (db.prepare("SELECT name FROM pragma_table_info('results')").pluck().all() as string[]).filter((c) => !IGNORED.has(c));
    const rows = db.prepare(`SELECT ${cols.map((c) => `"${c}"`).join(', ')} FROM results`).all() as Record<string, unknown>[];
    return rows.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  } finally {
    db.close();
  }
}

/** `report --format json` without its timing fields. */
function report(path: string): unknown[] {
  const out = execFileSync(process.execPath, [CLI, 'report', '--db', path, '--format', 'json'], { encoding: 'utf8' });
  return (JSON.parse(out) as Record<string, unknown>[]).map(({ medianMs: _m, p95Ms: _p, ...rest }) => rest);
}

function expectSameAsSingle(merged: string): void {
  const want = resultRows(single);
  expect(want.length).toBe(80);
  const got = resultRows(merged);
  expect(got).toEqual(want);
  // and the points that matter most, spelled out: status, positions, line and scores of every deal
  const pick = (r: Record<string, unknown>) => [r.code, r.status, r.positions, r.line, r.classic_score, r.reveal_score];
  expect(got.map(pick)).toEqual(want.map(pick));
  expect(report(merged)).toEqual(report(single));
  // each deal linked to the study at its place in the plan, by the name the plan gave it
  expect(links(merged)).toEqual(links(single));
  expect(links(single).length).toBe(80);
}

function links(path: string): unknown[] {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return db.prepare('SELECT s.name AS study, d.deal, d.ord, d.name FROM study_deals d JOIN studies s ON s.id = d.study_id ORDER BY s.name, d.ord').all();
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'spidersolve-cluster-'));
  // the recipes run the build: compile the sources under test into dist/
  execFileSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], { cwd: ROOT, stdio: 'inherit' });
  single = join(dir, 'single.sqlite');
  const r = await run(process.execPath, [CLI, 'batch', ...STUDY, '--workers', '1', '--no-shard', '--db', single]);
  expect(r.status, r.stderr).toBe(0);
}, 180_000);

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/**
 * Starts deploy/parallel/shards.sh with 2 shards of `study` into `out`, in a process group of its own
 * (as a terminal runs it), with `started` resolved once `shards` of them have said which shard they run.
 */
function startShards(script: string, out: string, study: string[], shards: number): { pid: number; started: Promise<void>; ended: Promise<number | null>; stderr: () => string } {
  const child = spawn('/bin/bash', [script, '2', out, ...study], { cwd: ROOT, env: { ...process.env, SPIDERSOLVE: `${process.execPath} ${CLI}` }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let stderr = '';
  child.stdout.resume();
  const started = new Promise<void>((resolve) => {
    child.stderr.on('data', (b: Buffer) => {
      stderr += b.toString();
      if ((stderr.match(/spidersolve: shard \d\/2 /g) ?? []).length >= shards) resolve();
    });
  });
  const ended = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { pid: child.pid!, started, ended, stderr: () => stderr };
}

describe('a study as shards, merged', () => {
  it('3 shard processes (--shard K/3) merged equal one run, row for row, and the report', async () => {
    const shards = [0, 1, 2].map((k) => join(dir, `p-shard-${k}.sqlite`));
    const outs = await Promise.all(shards.map((db, k) => run(process.execPath, [CLI, 'batch', ...STUDY, '--workers', '1', '--shard', `${k}/3`, '--db', db, '--json'])));
    const summaries = outs.map((o) => {
      expect(o.status, o.stderr).toBe(0);
      return JSON.parse(o.stdout) as { planned: number; shard: { shard: string; index: number; count: number; source: string; studyDeals: number } };
    });
    expect(summaries.map((s) => s.shard.shard)).toEqual(['0/3', '1/3', '2/3']);
    expect(summaries.map((s) => s.shard.source)).toEqual(['--shard 0/3', '--shard 1/3', '--shard 2/3']);
    // 80 deals in 3 shards: 27, 27, 26
    expect(summaries.map((s) => s.planned)).toEqual([27, 27, 26]);
    expect(summaries.every((s) => s.shard.studyDeals === 80)).toBe(true);
    expect(outs[1]!.stderr).toContain(`spidersolve: shard 1/3 (--shard 1/3): 27 of the study's 80 deals, into ${shards[1]}`);

    const into = join(dir, 'p-all.sqlite');
    const m = await run(process.execPath, [CLI, 'merge', '--into', into, ...shards, '--json']);
    expect(m.status, m.stderr).toBe(0);
    expect(JSON.parse(m.stdout).totals).toEqual({
      studies: { added: 1, present: 2, updated: 0 },
      runs: { added: 3, present: 0, updated: 0 },
      results: { added: 80, present: 0, updated: 0 },
      deal_names: { added: 80, present: 0, updated: 0 },
      study_deals: { added: 80, present: 0, updated: 0 },
    });
    expectSameAsSingle(into);

    // a shard run again is an ordinary resumed batch: nothing to do
    const again = await run(process.execPath, [CLI, 'batch', ...STUDY, '--workers', '1', '--shard', '2/3', '--db', shards[2]!, '--json']);
    expect(JSON.parse(again.stdout)).toMatchObject({ planned: 26, skipped: 26, ran: 0, remaining: 0 });
  });

  it('the GNU parallel recipe (deploy/parallel/shards.sh, 4 shards on this machine) equals one run', async () => {
    const has = spawnSync('parallel', ['--version'], { encoding: 'utf8' });
    expect(has.error, 'GNU parallel is not installed: apt-get install -y parallel (.ci/run does)').toBeUndefined();
    expect(has.stdout).toMatch(/^GNU parallel/);
    const out = join(dir, 'gnu');
    const r = await run(join(ROOT, 'deploy', 'parallel', 'shards.sh'), ['4', out, ...STUDY], { SPIDERSOLVE: `${process.execPath} ${CLI}` });
    expect(r.status, r.stderr).toBe(0);
    for (let k = 0; k < 4; k++) expect(r.stderr).toContain(`spidersolve: shard ${k}/4 (--shard ${k}/4): 20 of the study's 80 deals, into ${out}/shard-${k}.sqlite`);
    expect(r.stdout).toContain(`merged 4 databases into ${out}/all.sqlite (new)`);
    expect(r.stdout).toContain('in all: studies 1 added, 3 already there; runs 4 added, 0 already there; results 80 added, 0 already there; deal_names 80 added, 0 already there; study_deals 80 added, 0 already there');
    expectSameAsSingle(join(out, 'all.sqlite'));
  });

  it('the GNU parallel recipe without GNU parallel says so in one line, exit 2, nothing run (moreutils\' parallel is told apart)', async () => {
    const bin = join(dir, 'bin-no-parallel');
    mkdirSync(bin);
    const script = join(ROOT, 'deploy', 'parallel', 'shards.sh');
    const out = join(dir, 'none');
    const missing = await run('/bin/bash', [script, '2', out, ...STUDY], { PATH: bin });
    expect([missing.status, missing.stderr]).toEqual([2, `${script}: GNU parallel is not installed (Debian: apt-get install parallel); nothing was run\n`]);
    // a parallel that is not GNU's (moreutils prints no version banner)
    symlinkSync(execFileSync('/bin/bash', ['-c', 'command -v grep'], { encoding: 'utf8' }).trim(), join(bin, 'grep'));
    writeFileSync(join(bin, 'parallel'), '#!/bin/sh\necho "parallel: invalid option -- \'-\'" >&2\nexit 1\n', { mode: 0o755 });
    const other = await run('/bin/bash', [script, '2', out, ...STUDY], { PATH: bin });
    expect(other.status).toBe(2);
    expect(other.stderr).toMatch(/is not GNU parallel \(moreutils has one of the same name/);
    expect(existsSync(out)).toBe(false);
  });

  it('the GNU parallel recipe refuses a bad shard count, and a spidersolve it cannot run, in one line, exit 2, nothing run', async () => {
    const script = join(ROOT, 'deploy', 'parallel', 'shards.sh');
    const out = join(dir, 'refused');
    for (const n of ['abc', '0', '-1', '100001']) {
      const r = await run('/bin/bash', [script, n, out, ...STUDY], { SPIDERSOLVE: `${process.execPath} ${CLI}` });
      expect([r.status, r.stdout, r.stderr]).toEqual([2, '', `${script}: N "${n}": the number of shards must be a whole number from 1 to 100000; nothing was run\n`]);
    }
    const gone = await run('/bin/bash', [script, '2', out, ...STUDY], { SPIDERSOLVE: 'no-such-spidersolve' });
    expect(gone.status).toBe(2);
    expect(gone.stderr).toMatch(/^.*shards\.sh: cannot run "no-such-spidersolve" \(not found\); set SPIDERSOLVE, e\.g\. SPIDERSOLVE="node .*\/bin\/spidersolve\.js", or put spidersolve on the PATH \(npm link\); nothing was run\n$/);
    expect(existsSync(out)).toBe(false);
  });

  it('the GNU parallel recipe says when the shards refused their options, exit 2; RETRIES counts the tries again, and 0 means none, not GNU parallel\'s "forever"', async () => {
    const script = join(ROOT, 'deploy', 'parallel', 'shards.sh');
    const env = { SPIDERSOLVE: `${process.execPath} ${CLI}` };
    // --until-width cannot run as a shard: every shard exits 2
    const bad = ['--game', 'spider', '--suits', '1', '--seeds', '1-', '--until-width', '0.2', '--max-positions', '20000'];
    for (const [retries, tries] of [[undefined, 2], ['0', 1], ['2', 3]] as const) {
      const out = join(dir, `refusing-${retries ?? 'default'}`);
      const r = await run('/bin/bash', [script, '2', out, ...bad], { ...env, RETRIES: retries });
      expect(r.status).toBe(2);
      expect(r.stderr.split('\n').filter(Boolean).at(-1)).toBe(`${script}: the shards refused their input (exit 2, see above: the batch options, or a database under DIR); nothing merged — correct the command, then run it again`);
      // nothing was run, so DIR does not keep this N
      expect(existsSync(join(out, '.shard-count'))).toBe(false);
      // each shard's one-line refusal, once a try: at most RETRIES tries again after the first (GNU
      // parallel, with one host, may give up sooner), and none with RETRIES=0
      const seen = r.stderr.match(/option --until-width cannot run as a shard \(shard 0\/2/g)?.length ?? 0;
      expect(seen).toBeGreaterThanOrEqual(1);
      expect(seen).toBeLessThanOrEqual(tries);
      if (retries === '0') expect(seen).toBe(1);
      expect(existsSync(join(out, 'all.sqlite'))).toBe(false);
    }
    for (const retries of ['x', '-1', '1000']) {
      const r = await run('/bin/bash', [script, '2', join(dir, 'retries'), ...STUDY], { ...env, RETRIES: retries });
      expect([r.status, r.stdout, r.stderr]).toEqual([2, '', `${script}: RETRIES "${retries}": the number of tries again of a failed shard must be a whole number from 0 to 999; nothing was run\n`]);
    }
    // JOBS too (GNU parallel printed its whole usage, then "run the same command again")
    const jobs = await run('/bin/bash', [script, '2', join(dir, 'jobs'), ...STUDY], { ...env, JOBS: 'x' });
    expect([jobs.status, jobs.stdout, jobs.stderr]).toEqual([2, '', `${script}: JOBS "x": the number of shards at once must be a whole number (0: all at once); nothing was run\n`]);
    expect(existsSync(join(dir, 'jobs'))).toBe(false);
  });

  it('the GNU parallel recipe refuses a DIR that is a file, and another N on a DIR run with one, in one line, exit 2, nothing run (3 shards on a 4-shard folder re-solved most deals)', async () => {
    const script = join(ROOT, 'deploy', 'parallel', 'shards.sh');
    const env = { SPIDERSOLVE: `${process.execPath} ${CLI}` };
    const file = join(dir, 'dir-is-a-file');
    writeFileSync(file, 'x');
    const notDir = await run('/bin/bash', [script, '2', file, ...STUDY], env);
    expect([notDir.status, notDir.stdout, notDir.stderr]).toEqual([2, '', `${script}: DIR "${file}" is not a folder; give a folder for the shards' databases (made if absent); nothing was run\n`]);
    const out = join(dir, 'counted');
    const small = ['--game', 'spiderette', '--suits', '1', '--seeds', '1-8', '--max-positions', '2000'];
    const first = await run('/bin/bash', [script, '2', out, ...small], env);
    expect(first.status, first.stderr).toBe(0);
    expect(readFileSync(join(out, '.shard-count'), 'utf8')).toBe('2\n');
    const other = await run('/bin/bash', [script, '3', out, ...small], env);
    expect([other.status, other.stdout, other.stderr]).toEqual([2, '', `${script}: DIR "${out}" holds the shards of a run with N=2 (${out}/.shard-count), not 3: run it with N=2 to resume, or give another DIR; nothing was run\n`]);
    expect(existsSync(join(out, 'shard-2.sqlite'))).toBe(false);
    // a folder from before the count was kept: a shard database past N-1 tells a larger count
    rmSync(join(out, '.shard-count'));
    const fewer = await run('/bin/bash', [script, '1', out, ...small], env);
    expect([fewer.status, fewer.stdout, fewer.stderr]).toEqual([2, '', `${script}: DIR "${out}" holds ${out}/shard-1.sqlite, of a run with more than 1 shards: run it with its N to resume, or give another DIR; nothing was run\n`]);
    const again = await run('/bin/bash', [script, '2', out, ...small], env);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/deals 4: 4 already settled, 0 run now/);
    // the options the script gives itself, refused by it in words that say so
    const workers = await run('/bin/bash', [script, '2', join(dir, 'workers'), ...small, '--workers', '3'], env);
    expect([workers.status, workers.stdout, workers.stderr]).toEqual([2, '', `${script}: option --workers: the script gives each shard --workers itself; set WORKERS instead (default 1); nothing was run\n`]);
    const db = await run('/bin/bash', [script, '2', join(dir, 'workers'), ...small, '--db=x.sqlite'], env);
    expect([db.status, db.stdout, db.stderr]).toEqual([2, '', `${script}: option --db: the script gives each shard --shard K/N and --db DIR/shard-K.sqlite itself; leave it out; nothing was run\n`]);
    expect(existsSync(join(dir, 'workers'))).toBe(false);
  });

  it('the GNU parallel recipe stopped by Ctrl-C (SIGINT to its process group) says so and exits 130, nothing merged', async () => {
    const script = join(ROOT, 'deploy', 'parallel', 'shards.sh');
    const out = join(dir, 'interrupted');
    const sh = startShards(script, out, ['--game', 'spider', '--suits', '4', '--seeds', '1-400', '--max-positions', '1000000'], 2);
    await sh.started;
    await new Promise((r) => setTimeout(r, 1500));
    process.kill(-sh.pid, 'SIGINT');
    expect(await sh.ended).toBe(130);
    expect(sh.stderr().split('\n').filter(Boolean).at(-1)).toBe(`${script}: stopped by SIGINT; each shard keeps what it solved; nothing merged — run the same command again to resume`);
    expect(existsSync(join(out, 'all.sqlite'))).toBe(false);
    expect(existsSync(join(out, 'shard-0.sqlite'))).toBe(true);
  }, 120_000);

  it('the GNU parallel recipe sent SIGTERM alone (not its process group) merges nothing once the shards end, and exits 130 saying so', async () => {
    const script = join(ROOT, 'deploy', 'parallel', 'shards.sh');
    const out = join(dir, 'termed');
    const sh = startShards(script, out, ['--game', 'spiderette', '--suits', '1', '--seeds', '1-40', '--max-positions', '20000'], 1);
    await sh.started;
    process.kill(sh.pid, 'SIGTERM');
    expect(await sh.ended).toBe(130);
    expect(sh.stderr().split('\n').filter(Boolean).at(-1)).toBe(`${script}: stopped by SIGTERM, after the shards ended (a signal to this script alone does not reach them: send it to the process group, kill -TERM -- -PGID); nothing merged — run the same command again to merge`);
    expect(existsSync(join(out, 'all.sqlite'))).toBe(false);
  }, 120_000);

  it('the Kubernetes manifests: an Indexed Job whose command, run once per index, merges to one run', async () => {
    const docs = (file: string) => parseAllDocuments(readFileSync(join(ROOT, 'deploy', 'k8s', file), 'utf8')).map((d) => {
      expect(d.errors).toEqual([]);
      return d.toJS() as Record<string, any>;
    });
    const [job] = docs('shard-job.yaml');
    const [mergeJob] = docs('merge-job.yaml');
    const [pvc] = docs('shards-pvc.yaml');
    expect(job).toMatchObject({ apiVersion: 'batch/v1', kind: 'Job', spec: { completionMode: 'Indexed' } });
    // a pod refused its input (exit 2) fails the Job at once instead of backoffLimit replacements
    // refused the same way; podFailurePolicy needs restartPolicy Never
    expect(job!.spec.template.spec.restartPolicy).toBe('Never');
    expect(job!.spec.podFailurePolicy.rules).toContainEqual({ action: 'FailJob', onExitCodes: { containerName: job!.spec.template.spec.containers[0].name, operator: 'In', values: [2] } });
    expect(pvc).toMatchObject({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', spec: { accessModes: ['ReadWriteMany'] } });
    const n = job!.spec.completions as number;
    const pod = job!.spec.template.spec;
    const [container] = pod.containers;
    const [mergeContainer] = mergeJob!.spec.template.spec.containers;
    // the image the Dockerfile builds, in both jobs; the shard volume is the claim, mounted at /shards
    expect(readFileSync(join(ROOT, 'deploy', 'k8s', 'Dockerfile'), 'utf8')).toContain(`-t ${container.image} `);
    expect(mergeContainer.image).toBe(container.image);
    for (const p of [pod, mergeJob!.spec.template.spec]) {
      expect(p.volumes).toEqual([{ name: 'shards', persistentVolumeClaim: { claimName: pvc!.metadata.name } }]);
      expect(p.containers[0].volumeMounts).toEqual([{ name: 'shards', mountPath: '/shards' }]);
    }
    const [sh, c, command] = container.command as string[];
    expect([sh, c]).toEqual(['sh', '-c']);
    // --shard-count is the Job's completions, and each pod writes its own file on the volume
    expect(command).toContain(`--shard-count ${n} `);
    expect(command).toContain('--db /shards/shard-$JOB_COMPLETION_INDEX.sqlite');
    expect(command).toContain(STUDY.join(' '));

    // run the pods' command as the Job controller would: JOB_COMPLETION_INDEX = 0..n-1, /app the project
    const shardDir = join(dir, 'k8s');
    const local = (s: string) => s.replaceAll('/app/', `${ROOT}/`).replaceAll('/shards', shardDir);
    execFileSync('mkdir', ['-p', shardDir]);
    const pods = await Promise.all(Array.from({ length: n }, (_, i) => run('sh', ['-c', local(command)], { JOB_COMPLETION_INDEX: String(i) })));
    pods.forEach((p, i) => {
      expect(p.status, p.stderr).toBe(0);
      // the index variable reaches the shard
      expect(p.stderr).toContain(`spidersolve: shard ${i}/${n} (Kubernetes Indexed Job: JOB_COMPLETION_INDEX=${i}, --shard-count ${n}): 20 of the study's 80 deals, into ${shardDir}/shard-${i}.sqlite`);
    });
    const [msh, mc, mergeCommand] = mergeContainer.command as string[];
    expect([msh, mc]).toEqual(['sh', '-c']);
    const merged = await run('sh', ['-c', local(mergeCommand)]);
    expect(merged.status, merged.stderr).toBe(0);
    expect(merged.stdout).toContain(`merged ${n} databases into ${shardDir}/all.sqlite (new)`);
    expectSameAsSingle(join(shardDir, 'all.sqlite'));

    // without the index (not in an Indexed Job) the same command is refused, saying why
    const outside = await run('sh', ['-c', local(command)], { JOB_COMPLETION_INDEX: undefined });
    expect(outside.status).toBe(2);
    expect(outside.stderr).toContain(`option --shard-count ${n}: no shard index in the environment`);
  });
});
