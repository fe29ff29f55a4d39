import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { compareBuilds, type CompareSettings, comparisonTable } from '../src/bench-compare';

const BENCH_DIST = path.join(__dirname, '..', 'dist');

/**
 * A repository of two commits whose "service" (dist/work.js, made by `node build.js`, not committed) waits 60 ms
 * per call in the first and 10 ms in the second, and a bench that times it and records the figure the way the
 * project's benches do (bench-build's recordFigures).
 */
function twoCommitRepository(): { repository: string; script: string; cleanup(): void } {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'bench-compare-test-'));
  const repository = path.join(scratch, 'repository');
  const git = (...args: string[]) => execFileSync('git', ['-C', repository, ...args], { encoding: 'utf8' });
  execFileSync('git', ['init', '-q', repository]);
  git('config', 'user.email', 'bench@example.test');
  git('config', 'user.name', 'Bench');
  writeFileSync(path.join(repository, '.gitignore'), 'dist/\n');
  writeFileSync(
    path.join(repository, 'build.js'),
    `const fs = require('node:fs');
fs.mkdirSync(__dirname + '/dist', { recursive: true });
fs.copyFileSync(__dirname + '/work.js', __dirname + '/dist/work.js');\n`,
  );
  const commit = (delayMs: number) => {
    writeFileSync(path.join(repository, 'work.js'), `module.exports = { delayMs: ${delayMs} };\n`);
    git('add', '.');
    git('commit', '-q', '-m', `work takes ${delayMs} ms`);
  };
  commit(60);
  commit(10);
  execFileSync(process.execPath, ['build.js'], { cwd: repository });
  const script = path.join(scratch, 'sleep-bench.js');
  writeFileSync(
    script,
    `const path = require('node:path');
const { recordFigures } = require(${JSON.stringify(path.join(BENCH_DIST, 'bench-build.js'))});
const root = process.env.BENCH_SERVICES_ROOT;
const { delayMs } = require(path.join(root, 'dist/work.js'));
const started = process.hrtime.bigint();
setTimeout(() => {
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  console.log('slept', ms, 'ms in', root);
  recordFigures([{ row: 'work' + process.argv.slice(2).join(' '), metric: 'ms', value: ms, better: 'lower' }]);
}, delayMs);\n`,
  );
  return { repository, script, cleanup: () => rmSync(scratch, { recursive: true, force: true }) };
}

describe('bench:compare', () => {
  const setup = twoCommitRepository();
  /** The directories compareBuilds keeps its runs' reports in (it names them in its last log line). */
  const kept: string[] = [];
  afterAll(() => {
    setup.cleanup();
    for (const directory of kept) rmSync(directory, { recursive: true, force: true });
  });
  const settings = (overrides: Partial<CompareSettings> = {}): CompareSettings => ({
    repository: setup.repository,
    ref: 'HEAD~1',
    script: setup.script,
    args: [' once'],
    rounds: 2,
    buildCommands: [[process.execPath, 'build.js']],
    log: (line) => kept.push(...(/kept in (\S+)$/.exec(line)?.slice(1) ?? [])),
    ...overrides,
  });

  it('builds the other commit in a worktree, runs the bench on both builds alternately and prints the ratios', async () => {
    const result = await compareBuilds(settings());
    expect(result.oldCommit).toMatch(/^[0-9a-f]{40}$/);
    expect(result.order).toEqual(['old', 'new', 'new', 'old']);
    const [comparison] = result.comparisons;
    expect(result.comparisons).toHaveLength(1);
    expect(comparison).toMatchObject({ row: 'work once', metric: 'ms', better: 'lower' });
    // The old build (60 ms) and the new (10 ms): every round's ratio shows the new one faster.
    expect(Math.min(...comparison.old)).toBeGreaterThanOrEqual(59);
    expect(Math.max(...comparison.new)).toBeLessThan(45);
    expect(comparison.ratios).toHaveLength(2);
    for (const ratio of comparison.ratios) expect(ratio).toBeLessThan(0.75);

    const table = comparisonTable(result, 'sleep', ['once']).split('\n');
    expect(table[0]).toMatch(
      /^bench:compare sleep once: new [0-9a-f]{7} over old [0-9a-f]{7}, 2 rounds each/,
    );
    expect(table[2]).toBe(
      '| row | metric | old (median) | new (median) | new / old (median) | spread of the rounds | better is |',
    );
    expect(table[4]).toMatch(
      /^\| work once \| ms \| 6\d\.\d \| (?:9\.\d\d|1\d\.\d) \| 0\.\d\d \| 0\.\d\d–0\.\d\d \| lower \|$/,
    );
    // The temporary worktree is gone.
    const worktrees = execFileSync('git', ['-C', setup.repository, 'worktree', 'list'], { encoding: 'utf8' });
    expect(worktrees.trim().split('\n')).toHaveLength(1);
    // Each run's own report is kept.
    expect(readFileSync(path.join(kept[0], 'round-1-old.log'), 'utf8')).toMatch(/^slept \d+(\.\d+)? ms in /);
  });

  it('refuses a ref that names no commit, and a bench that records no figures', async () => {
    await expect(compareBuilds(settings({ ref: 'no-such-ref' }))).rejects.toThrow(/no-such-ref/);
    const silent = path.join(path.dirname(setup.script), 'silent-bench.js');
    writeFileSync(silent, 'console.log("nothing measured");\n');
    await expect(compareBuilds(settings({ script: silent, rounds: 1 }))).rejects.toThrow(
      /recorded no figures/,
    );
    const failing = path.join(path.dirname(setup.script), 'failing-bench.js');
    writeFileSync(failing, 'process.exit(3);\n');
    await expect(compareBuilds(settings({ script: failing, rounds: 1 }))).rejects.toThrow(/exited with 3/);
  });

  it('explains its usage when the bench is unknown', () => {
    const answer = spawnSync(process.execPath, [path.join(BENCH_DIST, 'bench-compare.js'), 'main', 'nope'], {
      encoding: 'utf8',
    });
    expect(answer.status).toBe(2);
    expect(answer.stderr).toContain('Usage: pnpm bench:compare <git-ref> <bench>');
    expect(answer.stderr).toContain('calc, import, search, search-pool, multicall, master-data');
  });
});
