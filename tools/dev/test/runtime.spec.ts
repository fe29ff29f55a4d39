import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { PINNED_NODE } from './pinned-node.js';
import { REPO_ROOT } from './run-cli.js';

const read = (file: string) => readFileSync(path.join(REPO_ROOT, file), 'utf8');
const rootPackage = JSON.parse(read('package.json')) as {
  engines: { node: string };
  devDependencies: Record<string, string>;
};
const major = PINNED_NODE.split('.')[0];

/** What is tested is what ships: one Node, from .nvmrc, for the tests, the scripts and the images. */
describe('the pinned Node', () => {
  it('runs these tests', () => {
    expect(process.version).toBe(`v${PINNED_NODE}`);
  });

  it('is installed from the registry by pnpm install, and pnpm checks engines against it', () => {
    expect(rootPackage.devDependencies.node).toBe(PINNED_NODE);
    expect((parse(read('pnpm-workspace.yaml')) as { nodeVersion: string }).nodeVersion).toBe(PINNED_NODE);
  });

  it('is named by its major in engines, and @types/node follows that major', () => {
    expect(rootPackage.engines.node).toBe(`${major}.x`);
    expect(rootPackage.devDependencies['@types/node']).toMatch(new RegExp(`^\\^${major}\\.`));
  });
});
