import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

/** One problem redocly reports: its rule, severity, message and where in the document. */
export interface OpenApiLintProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: string;
}

interface RedoclyReport {
  problems: {
    ruleId: string;
    severity: 'error' | 'warn';
    message: string;
    location: { pointer: string }[];
  }[];
}

const REDOCLY = require.resolve('@redocly/cli/bin/cli.js');

/**
 * The problems of an OpenAPI document under redocly's recommended rules, as portals' tooling reports them
 * (`redocly lint --format=json`, the CLI as installed in the workspace; no network: telemetry off).
 */
export async function lintOpenApi(document: object): Promise<OpenApiLintProblem[]> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bp-openapi-'));
  const file = path.join(dir, 'openapi.json');
  writeFileSync(file, JSON.stringify(document));
  try {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [REDOCLY, 'lint', '--format=json', '--extends=recommended', file],
      {
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
        maxBuffer: 64 * 1024 ** 2,
      },
    ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
    const report = JSON.parse(stdout) as RedoclyReport;
    return report.problems.map((problem) => ({
      ruleId: problem.ruleId,
      severity: problem.severity,
      message: problem.message,
      location: problem.location[0]?.pointer ?? '',
    }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The errors among the problems, one line each (rule, where, message), for a readable test failure. */
export const lintErrors = (problems: OpenApiLintProblem[]): string[] =>
  problems
    .filter((problem) => problem.severity === 'error')
    .map((problem) => `${problem.ruleId} at ${problem.location}: ${problem.message}`);
