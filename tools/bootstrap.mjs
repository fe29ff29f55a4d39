// `pnpm quickstart` / `pnpm quicktest` for a fresh checkout: runs before anything is installed, so plain Node
// and no dependencies. Usage: node tools/bootstrap.mjs start|test|lint
import { spawn, spawnSync } from 'node:child_process';

const PNPM_VERSION = '12.21.0';
const FORWARDED_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** The installed pnpm when it is 12.x, else the pinned one through npx. */
function findPnpm() {
  const probe = spawnSync('pnpm', ['--version'], { encoding: 'utf8' });
  if (probe.status === 0 && probe.stdout.trim().startsWith('12.')) return ['pnpm'];
  return ['npx', '--yes', `pnpm@${PNPM_VERSION}`];
}

function stepsFor(mode) {
  const install = {
    label: 'Installing dependencies',
    args: ['install', ...(process.env.CI ? ['--frozen-lockfile'] : [])],
  };
  if (mode === 'start') {
    return [
      install,
      { label: 'Building', args: ['build'] },
      { label: 'Starting the suite', args: ['start'] },
    ];
  }
  if (mode === 'lint') return [install, { label: 'Linting', args: ['lint'] }];
  return [install, { label: 'Building and testing', args: ['test'] }];
}

let current;
let interrupted = false;
for (const signal of FORWARDED_SIGNALS) {
  process.on(signal, () => {
    interrupted = true;
    current?.kill(signal);
  });
}

function run([command, ...prefix], args) {
  return new Promise((resolve) => {
    current = spawn(command, [...prefix, ...args], { stdio: 'inherit' });
    current.once('error', (error) => {
      console.error(`bootstrap: cannot run ${command}: ${error.message}`);
      resolve(127);
    });
    current.once('exit', (code) => resolve(code ?? 1));
  });
}

async function main(mode) {
  if (!['start', 'test', 'lint'].includes(mode)) {
    console.error('usage: node tools/bootstrap.mjs start|test|lint');
    return 2;
  }
  const pnpm = findPnpm();
  for (const step of stepsFor(mode)) {
    if (interrupted) return 1;
    console.log(`\n> ${step.label}: ${[...pnpm, ...step.args].join(' ')}`);
    const code = await run(pnpm, step.args);
    if (code !== 0) return code;
  }
  return 0;
}

process.exit(await main(process.argv[2]));
