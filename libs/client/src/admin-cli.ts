#!/usr/bin/env node
import { isUtf8 } from 'node:buffer';
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { type AdminClient, createAdminClient, type MasterDataKind } from './admin-client.js';
import { BrokerApiError, must } from './api-error.js';
import { TokenRequestError } from './client-credentials.js';

const USAGE = `usage: pnpm admin <verb> [arguments] [--json] [--url URL]

  tenant create <id> <name>                    tenant list
  broker create <tenant> <number> <name> [--parent NUMBER] [--blocked]
  broker get <tenant> <number>                 broker list <tenant> [--parent NUMBER|-] [--q TEXT]
  employee create <tenant> <broker> <number> <name> [--email ADDRESS]
  api-client create <tenant> <broker> [--api-id ID]      (prints the key and OTP URI once)
  api-client rotate <tenant> <api-id>          api-client block|unblock|delete <tenant> <api-id>
  calc-user create <tenant> <username>         (the password is read from standard input)
  master-data <tenant> brokers|employees|companies|agreements <file.csv> [--dry-run]

The service: --url, else ADMIN_URL, else http://127.0.0.1:3005/admin/v1.
The token: ADMIN_TOKEN, else the client-credentials grant with ADMIN_CLIENT_ID, ADMIN_CLIENT_SECRET and
ADMIN_TOKEN_URL (ADMIN_TOKEN_SCOPE, default platform.operator; ADMIN_TOKEN_RESOURCE, the audience, if the
authorization server issues tokens per API). --json prints the service's answer as JSON, for scripts.
Exit codes: 0 done, 1 refused by the service (or a master-data file with bad lines), 2 usage.`;

const DEFAULT_URL = 'http://127.0.0.1:3005/admin/v1';

class UsageError extends Error {}

interface Invocation {
  positionals: string[];
  json: boolean;
  options: {
    parent?: string;
    blocked?: boolean;
    q?: string;
    email?: string;
    apiId?: string;
    dryRun?: boolean;
  };
  url: string;
}

function parse(argv: string[]): Invocation {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      json: { type: 'boolean', default: false },
      url: { type: 'string' },
      parent: { type: 'string' },
      blocked: { type: 'boolean' },
      q: { type: 'string' },
      email: { type: 'string' },
      'api-id': { type: 'string' },
      'dry-run': { type: 'boolean' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help || positionals.length === 0) throw new UsageError(USAGE);
  return {
    positionals,
    json: values.json,
    url: values.url ?? process.env.ADMIN_URL ?? DEFAULT_URL,
    options: {
      parent: values.parent,
      blocked: values.blocked,
      q: values.q,
      email: values.email,
      apiId: values['api-id'],
      dryRun: values['dry-run'],
    },
  };
}

/** The client with the token the environment gives: ADMIN_TOKEN, else client credentials. */
function clientFor(url: string): AdminClient {
  const env = process.env;
  if (env.ADMIN_TOKEN) return createAdminClient({ baseUrl: url, auth: { token: env.ADMIN_TOKEN } });
  const { ADMIN_CLIENT_ID, ADMIN_CLIENT_SECRET, ADMIN_TOKEN_URL } = env;
  if (!ADMIN_CLIENT_ID || !ADMIN_CLIENT_SECRET || !ADMIN_TOKEN_URL)
    throw new UsageError(
      'No token: set ADMIN_TOKEN, or ADMIN_CLIENT_ID, ADMIN_CLIENT_SECRET and ADMIN_TOKEN_URL (see pnpm admin --help)',
    );
  return createAdminClient({
    baseUrl: url,
    auth: {
      credentials: {
        tokenUrl: ADMIN_TOKEN_URL,
        clientId: ADMIN_CLIENT_ID,
        clientSecret: ADMIN_CLIENT_SECRET,
        scope: env.ADMIN_TOKEN_SCOPE || 'platform.operator',
        resource: env.ADMIN_TOKEN_RESOURCE || undefined,
      },
    },
  });
}

/** The arguments a verb takes, by position; too few or too many is a usage error. */
function take(positionals: string[], names: string[]): string[] {
  if (positionals.length !== names.length)
    throw new UsageError(`expected ${names.map((name) => `<${name}>`).join(' ')}\n\n${USAGE}`);
  return positionals;
}

async function readStandardInput(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

/** What a verb answers: the service's answer, and the line a person reads. */
interface Outcome {
  answer: unknown;
  text: string;
  /** A master-data file with bad lines: nothing was written. */
  failed?: boolean;
}

type Verb = (client: AdminClient, invocation: Invocation, args: string[]) => Promise<Outcome>;

const VERBS: Record<string, Verb> = {
  'tenant create': async ({ api }, _invocation, args) => {
    const [id, name] = take(args, ['id', 'name']);
    const tenant = await must(api.POST('/tenants', { body: { id, name } }));
    return { answer: tenant, text: `Tenant ${tenant.id} created` };
  },
  'tenant list': async ({ api }, _invocation, args) => {
    take(args, []);
    const page = await must(api.GET('/tenants', { params: { query: { limit: 500 } } }));
    return { answer: page, text: page.items.map((tenant) => `${tenant.id}\t${tenant.name}`).join('\n') };
  },
  'broker create': async ({ api }, { options }, args) => {
    const [tenant, number, name] = take(args, ['tenant', 'number', 'name']);
    const broker = await must(
      api.POST('/tenants/{tenant}/brokers', {
        params: { path: { tenant } },
        body: { number, name, parent: options.parent ?? null, blocked: options.blocked ?? false },
      }),
    );
    return {
      answer: broker,
      text: `Broker ${broker.number} created${broker.parent ? ` below ${broker.parent}` : ''}`,
    };
  },
  'broker get': async ({ api }, _invocation, args) => {
    const [tenant, broker] = take(args, ['tenant', 'number']);
    const view = await must(
      api.GET('/tenants/{tenant}/brokers/{broker}', { params: { path: { tenant, broker } } }),
    );
    const lines = [
      `${view.number}\t${view.name}${view.blocked ? '\t(blocked)' : ''}`,
      `superior: ${view.parent ?? '-'}, sub-brokers: ${view.sub_broker_count}`,
      `employees (${view.employee_count}): ${view.employees.map((employee) => employee.number).join(', ') || '-'}`,
      `API clients (${view.api_client_count}): ${view.api_clients.map((client) => client.api_id).join(', ') || '-'}`,
    ];
    return { answer: view, text: lines.join('\n') };
  },
  'broker list': async ({ api }, { options }, args) => {
    const [tenant] = take(args, ['tenant']);
    const page = await must(
      api.GET('/tenants/{tenant}/brokers', {
        params: { path: { tenant }, query: { parent: options.parent, q: options.q, limit: 500 } },
      }),
    );
    const rows = page.items.map((broker) => `${broker.number}\t${broker.parent ?? '-'}\t${broker.name}`);
    return { answer: page, text: [...rows, `(${page.items.length} of ${page.total})`].join('\n') };
  },
  'employee create': async ({ api }, { options }, args) => {
    const [tenant, broker, number, name] = take(args, ['tenant', 'broker', 'number', 'name']);
    const employee = await must(
      api.POST('/tenants/{tenant}/brokers/{broker}/employees', {
        params: { path: { tenant, broker } },
        body: { number, name, email: options.email ?? null },
      }),
    );
    return { answer: employee, text: `Employee ${employee.number} of ${employee.broker} created` };
  },
  'api-client create': async ({ api }, { options }, args) => {
    const [tenant, broker] = take(args, ['tenant', 'broker']);
    const created = await must(
      api.POST('/tenants/{tenant}/brokers/{broker}/api-clients', {
        params: { path: { tenant, broker } },
        body: options.apiId === undefined ? {} : { api_id: options.apiId },
      }),
    );
    const text = [
      `API client ${created.api_id} of ${created.broker} created. Its key is shown only now:`,
      `api_key:  ${created.api_key}`,
      `otp_uri:  ${created.otp_uri}`,
    ].join('\n');
    return { answer: created, text };
  },
  'api-client rotate': async ({ api }, _invocation, args) => {
    const [tenant, apiId] = take(args, ['tenant', 'api-id']);
    const rotated = await must(
      api.POST('/tenants/{tenant}/api-clients/{apiId}/key', { params: { path: { tenant, apiId } } }),
    );
    const text = [
      `New key of ${apiId}, shown only now (the previous one works until ${rotated.previous_key_valid_until}):`,
      `api_key:  ${rotated.api_key}`,
      `otp_uri:  ${rotated.otp_uri}`,
    ].join('\n');
    return { answer: rotated, text };
  },
  'api-client block': (client, _invocation, args) => setBlocked(client, args, true),
  'api-client unblock': (client, _invocation, args) => setBlocked(client, args, false),
  'api-client delete': async ({ api }, _invocation, args) => {
    const [tenant, apiId] = take(args, ['tenant', 'api-id']);
    await must(api.DELETE('/tenants/{tenant}/api-clients/{apiId}', { params: { path: { tenant, apiId } } }));
    return { answer: { api_id: apiId, deleted: true }, text: `API client ${apiId} deleted` };
  },
  'calc-user create': async ({ api }, _invocation, args) => {
    const [tenant, username] = take(args, ['tenant', 'username']);
    const password = await readStandardInput();
    const user = await must(
      api.POST('/tenants/{tenant}/calc-users', {
        params: { path: { tenant } },
        body: { username, password },
      }),
    );
    return { answer: user, text: `Calculation user ${user.username} created` };
  },
};

async function setBlocked({ api }: AdminClient, args: string[], blocked: boolean): Promise<Outcome> {
  const [tenant, apiId] = take(args, ['tenant', 'api-id']);
  const client = await must(
    api.PATCH('/tenants/{tenant}/api-clients/{apiId}', {
      params: { path: { tenant, apiId } },
      body: { blocked },
    }),
  );
  return { answer: client, text: `API client ${apiId} ${blocked ? 'blocked' : 'unblocked'}` };
}

async function masterData(client: AdminClient, { options }: Invocation, args: string[]): Promise<Outcome> {
  const [tenant, kind, file] = take(args, ['tenant', 'kind', 'file.csv']);
  const bytes = await readFile(file);
  // Decoding would turn another charset's umlauts into replacement characters, and the service would store them.
  if (!isUtf8(bytes))
    throw new Error(`${file} is not UTF-8: save it as UTF-8 (e.g. iconv -f windows-1252 -t utf-8)`);
  const result = await client.importMasterData(tenant, kind as MasterDataKind, bytes.toString('utf8'), {
    dryRun: options.dryRun,
  });
  const counts = `${result.created} created, ${result.updated} updated, ${result.unchanged} unchanged`;
  const lines = result.errors.map((error) => `line ${error.line}: ${error.message}`);
  const text =
    result.errors.length > 0
      ? [`${file} refused: nothing was written. Bad lines:`, ...lines].join('\n')
      : `${result.dry_run ? 'Dry run, nothing written: ' : ''}${counts}`;
  return { answer: result, text, failed: result.errors.length > 0 };
}

/** Why a call failed, in one line (the service's message, or the token endpoint's answer). */
function describeFailure(error: unknown): string | undefined {
  if (error instanceof BrokerApiError)
    return `refused (${error.status}): ${error.message.replace(/^.* answered \d+: /, '')}`;
  if (error instanceof TokenRequestError) return `no token: ${error.message}`;
  return undefined;
}

/**
 * Text for a terminal: control characters other than line breaks and tabs become `?`. Names and messages come from
 * the service and, through it, from uploaded files; an escape sequence in them must not drive the operator's terminal.
 */
const printable = (text: string) => text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '?');

async function main(argv: string[]): Promise<number> {
  const invocation = parse(argv);
  const [first, second, ...rest] = invocation.positionals;
  const client = clientFor(invocation.url);
  const verb = first === 'master-data' ? masterData : VERBS[`${first} ${second}`];
  if (!verb) throw new UsageError(`unknown verb: ${[first, second].filter(Boolean).join(' ')}\n\n${USAGE}`);
  const args = first === 'master-data' ? [second, ...rest].filter((arg) => arg !== undefined) : rest;
  try {
    const outcome = await verb(client, invocation, args);
    process.stdout.write(
      `${invocation.json ? JSON.stringify(outcome.answer, null, 2) : printable(outcome.text)}\n`,
    );
    return outcome.failed ? 1 : 0;
  } catch (error) {
    const failure = describeFailure(error);
    if (!failure) throw error;
    if (invocation.json && error instanceof BrokerApiError) {
      const body: unknown = error.body;
      process.stdout.write(`${JSON.stringify({ status: error.status, error: body }, null, 2)}\n`);
    }
    process.stderr.write(`admin: ${printable(failure)}\n`);
    return 1;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const usage =
      error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(usage ? 2 : 1);
  },
);
