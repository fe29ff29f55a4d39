import { readFileSync } from 'node:fs';

import type { z } from 'zod';

/** One problem found in a catalog: where (`providers[2].products[0].age_bands[1].min_age`) and what. */
export interface CatalogIssue {
  /** JSON path in dotted/bracket notation; empty for the document itself. */
  readonly path: string;
  readonly message: string;
}

/** How many issues the message lists; `issues` always holds all of them. */
const LISTED_ISSUES = 20;

/**
 * A catalog that cannot be used: unreadable file, not JSON, or not valid against the schema and its
 * cross-field rules. The message names the source and lists every problem as `path: problem`, so a service
 * that loads its catalog at boot can print it and stop.
 */
export class CatalogError extends Error {
  override readonly name = 'CatalogError';

  constructor(
    /** File path or another label of where the catalog came from. */
    readonly source: string,
    readonly issues: readonly CatalogIssue[],
  ) {
    super(CatalogError.describe(source, issues));
  }

  private static describe(source: string, issues: readonly CatalogIssue[]): string {
    const lines = issues
      .slice(0, LISTED_ISSUES)
      .map((issue) => `  - ${issue.path === '' ? '(catalog)' : issue.path}: ${issue.message}`);
    if (issues.length > LISTED_ISSUES) lines.push(`  … and ${issues.length - LISTED_ISSUES} more`);
    const count = issues.length === 1 ? '1 problem' : `${issues.length} problems`;
    return `Invalid catalog ${source} (${count}):\n${lines.join('\n')}`;
  }
}

/** `['providers', 2, 'products', 0, 'id']` → `providers[2].products[0].id`. */
export function formatIssuePath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const key of path) {
    if (typeof key === 'number') text += `[${key}]`;
    else text += text === '' ? String(key) : `.${String(key)}`;
  }
  return text;
}

/**
 * zod's issues in the catalog error's form, with shorter wording for the common cases. Parse with
 * `{ reportInput: true }` so that a missing field reads "is required".
 */
export function issuesFromZod(error: z.ZodError): CatalogIssue[] {
  return error.issues.map((issue) => {
    let message = issue.message;
    if (issue.code !== 'unrecognized_keys' && 'input' in issue && issue.input === undefined) {
      message = 'is required';
    } else if (issue.code === 'unrecognized_keys') {
      message = `unknown ${issue.keys.length === 1 ? 'key' : 'keys'} ${issue.keys.map((key) => JSON.stringify(key)).join(', ')}`;
    } else if (message.startsWith('Invalid input: ')) {
      message = message.slice('Invalid input: '.length);
    }
    return { path: formatIssuePath(issue.path), message };
  });
}

/** Reads and parses a JSON catalog file; any failure is a `CatalogError` naming the file. */
export function readJsonCatalogFile(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new CatalogError(path, [{ path: '', message: `cannot read the file: ${messageOf(error)}` }]);
  }
  try {
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) as unknown;
  } catch (error) {
    throw new CatalogError(path, [{ path: '', message: `not valid JSON: ${messageOf(error)}` }]);
  }
}

/** An error's message; `instanceof Error` is not used because errors may come from another realm (jest). */
function messageOf(error: unknown): string {
  if (
    typeof error === 'object' &&
    error !== null &&
    'message' in error &&
    typeof error.message === 'string'
  ) {
    return error.message;
  }
  return String(error);
}
