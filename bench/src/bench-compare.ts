import { execFileSync, spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findWorkspaceRoot } from '@broker/local-services';
import type { BenchFigure } from './bench-build.js';

/** The benches bench:compare runs, by name: their built scripts in bench/dist. */
export const COMPARABLE_BENCHES: Record<string, string> = {
  calc: 'calc-bench.js',
  import: 'import-bench.js',
  search: 'search-bench.js',
  'search-pool': 'search-pool-bench.js',
  multicall: 'multicall-bench.js',
  'master-data': 'master-data-bench.js',
};

const DEFAULT_ROUNDS = 3;
/** How the other commit's tree is built: its own lockfile, packages from the store where it has them. */
const BUILD_COMMANDS = [
  ['pnpm', 'install', '--frozen-lockfile', '--prefer-offline'],
  ['pnpm', 'build'],
];

export interface CompareSettings {
  /** The repository whose checkout is the new build (built already). */
  repository: string;
  /** The old build: any git ref of the repository. */
  ref: string;
  /** The bench's script (this checkout's) and its arguments; it runs once per build and round. */
  script: string;
  args: string[];
  rounds: number;
  /** The commands that build a tree checked out at `ref` (run in it, one after the other). */
  buildCommands: string[][];
  /** Where progress goes (the bench's own output goes to a log file per run). */
  log: (line: string) => void;
}

type Build = 'old' | 'new';

/** A figure of both builds, round by round: `ratios` are new over old of the same round. */
export interface Comparison {
  row: string;
  metric: string;
  better: BenchFigure['better'];
  old: number[];
  new: number[];
  ratios: number[];
}

export interface CompareResult {
  oldCommit: string;
  newLabel: string;
  /** The builds in the order they ran. */
  order: Build[];
  comparisons: Comparison[];
}

/** A git command's output; its complaints are in the error it throws. */
const git = (repository: string, ...args: string[]) =>
  execFileSync('git', ['-C', repository, ...args], { encoding: 'utf8', stdio: 'pipe' }).trim();

/** The checkout as the new build: its commit, and whether it has changes not committed. */
function checkoutLabel(repository: string): string {
  const head = git(repository, 'rev-parse', '--short', 'HEAD');
  return git(repository, 'status', '--porcelain', '--untracked-files=no') ? `${head} + changes` : head;
}

function run(command: string[], cwd: string, env: NodeJS.ProcessEnv, logFile: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const output = createWriteStream(logFile, { flags: 'a' });
    const child = spawn(command[0], command.slice(1), { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.pipe(output, { end: false });
    child.stderr.pipe(output, { end: false });
    child.on('error', reject);
    child.on('close', (code) => {
      output.end();
      if (code === 0) resolve();
      else reject(new Error(`${command.join(' ')} in ${cwd} exited with ${code}; its output: ${logFile}`));
    });
  });
}

/** The other commit, checked out in a worktree of its own and built. */
async function buildOldTree(settings: CompareSettings, commit: string, scratch: string): Promise<string> {
  const tree = path.join(scratch, 'tree');
  git(settings.repository, 'worktree', 'add', '--detach', tree, commit);
  const logFile = path.join(scratch, 'build.log');
  settings.log(`building ${commit.slice(0, 12)} in ${tree} (output: ${logFile}) ...`);
  for (const command of settings.buildCommands) await run(command, tree, process.env, logFile);
  return tree;
}

function readFigures(file: string): BenchFigure[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as BenchFigure);
}

/** Each figure of every round, old and new side by side. */
function compareFigures(runs: { build: Build; round: number; figures: BenchFigure[] }[]): Comparison[] {
  const byKey = new Map<string, Comparison>();
  for (const { build, figures } of runs)
    for (const figure of figures) {
      const key = `${figure.row}\u0000${figure.metric}`;
      const comparison = byKey.get(key) ?? {
        row: figure.row,
        metric: figure.metric,
        better: figure.better,
        old: [],
        new: [],
        ratios: [],
      };
      comparison[build].push(figure.value);
      byKey.set(key, comparison);
    }
  for (const comparison of byKey.values())
    comparison.ratios = comparison.old
      .slice(0, comparison.new.length)
      .map((old, round) => comparison.new[round] / old);
  return [...byKey.values()];
}

/**
 * Runs the bench against the checkout's build and the other commit's, alternately (old, new; then new, old; ...),
 * `rounds` times each, in one run on one machine: its drift touches both builds alike, and the ratio of a round
 * pairs measurements taken minutes apart.
 */
export async function compareBuilds(settings: CompareSettings): Promise<CompareResult> {
  const oldCommit = git(settings.repository, 'rev-parse', '--verify', `${settings.ref}^{commit}`);
  const newLabel = checkoutLabel(settings.repository);
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'bench-compare-'));
  let tree: string | undefined;
  try {
    tree = await buildOldTree(settings, oldCommit, scratch);
    const roots: Record<Build, string> = { old: tree, new: settings.repository };
    const runs: { build: Build; round: number; figures: BenchFigure[] }[] = [];
    for (let round = 0; round < settings.rounds; round++) {
      const builds: Build[] = round % 2 === 0 ? ['old', 'new'] : ['new', 'old'];
      for (const build of builds) {
        const results = path.join(scratch, `round-${round + 1}-${build}.jsonl`);
        const logFile = path.join(scratch, `round-${round + 1}-${build}.log`);
        settings.log(`round ${round + 1} of ${settings.rounds}: ${build} build ...`);
        const env = { ...process.env, BENCH_SERVICES_ROOT: roots[build], BENCH_RESULTS_FILE: results };
        await run([process.execPath, settings.script, ...settings.args], settings.repository, env, logFile);
        runs.push({ build, round, figures: readFigures(results) });
      }
    }
    if (runs.every((entry) => entry.figures.length === 0))
      throw new Error(`${settings.script} recorded no figures (bench/src/bench-build.ts recordFigures)`);
    return {
      oldCommit,
      newLabel,
      order: runs.map((entry) => entry.build),
      comparisons: compareFigures(runs),
    };
  } finally {
    if (tree) git(settings.repository, 'worktree', 'remove', '--force', tree);
    settings.log(`every run's own report and the build's output are kept in ${scratch}`);
  }
}

const median = (values: number[]) => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const figure = (value: number) =>
  Number.isNaN(value) ? '–' : Math.abs(value) >= 100 ? value.toFixed(0) : value.toPrecision(3);

/** The comparison as a Markdown table, one line per figure, to paste into a commit message or bench/README. */
export function comparisonTable(result: CompareResult, bench: string, args: string[]): string {
  const rounds = result.order.length / 2;
  const lines = [
    `bench:compare ${[bench, ...args].join(' ')}: new ${result.newLabel} over old ${result.oldCommit.slice(0, 7)}, ` +
      `${rounds} round${rounds === 1 ? '' : 's'} each, alternating (${result.order.join(', ')})`,
    '',
    '| row | metric | old (median) | new (median) | new / old (median) | spread of the rounds | better is |',
    '| --- | --- | ---: | ---: | ---: | --- | --- |',
    ...result.comparisons.map((comparison) => {
      const { ratios } = comparison;
      // A figure only one build's runs recorded (a row the other's bench had not) has no ratio.
      const ratio = ratios.length > 0 ? median(ratios).toFixed(2) : '–';
      const spread =
        ratios.length > 0 ? `${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}` : '–';
      return (
        `| ${comparison.row} | ${comparison.metric} | ${figure(median(comparison.old))} | ` +
        `${figure(median(comparison.new))} | ${ratio} | ${spread} | ${comparison.better} |`
      );
    }),
  ];
  return lines.join('\n');
}

const USAGE = `Usage: pnpm bench:compare <git-ref> <bench> [bench arguments...] [--rounds N]
Benches: ${Object.keys(COMPARABLE_BENCHES).join(', ')}. Rounds: ${DEFAULT_ROUNDS} per build unless given.`;

function parseArguments(argv: string[]) {
  const rest = [...argv];
  let rounds = DEFAULT_ROUNDS;
  const at = rest.indexOf('--rounds');
  if (at >= 0) {
    rounds = Number(rest[at + 1]);
    rest.splice(at, 2);
  }
  const [ref, bench, ...args] = rest;
  if (!ref || !bench || !COMPARABLE_BENCHES[bench] || !Number.isInteger(rounds) || rounds < 1) return null;
  return { ref, bench, args, rounds };
}

async function main(): Promise<void> {
  const parsed = parseArguments(process.argv.slice(2));
  if (!parsed) {
    process.stderr.write(`${USAGE}\n`);
    process.exitCode = 2;
    return;
  }
  const result = await compareBuilds({
    repository: findWorkspaceRoot(__dirname),
    ref: parsed.ref,
    script: path.join(__dirname, COMPARABLE_BENCHES[parsed.bench]),
    args: parsed.args,
    rounds: parsed.rounds,
    buildCommands: BUILD_COMMANDS,
    log: (line) => process.stderr.write(`bench:compare: ${line}\n`),
  });
  process.stdout.write(`${comparisonTable(result, parsed.bench, parsed.args)}\n`);
}

if (require.main === module)
  main().catch((error: unknown) => {
    process.stderr.write(`bench:compare: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
