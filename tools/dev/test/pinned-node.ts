import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './run-cli.js';

/** The Node every script, test, bench and image runs on: the exact version .nvmrc names. */
export const PINNED_NODE = readFileSync(path.join(REPO_ROOT, '.nvmrc'), 'utf8').trim();
