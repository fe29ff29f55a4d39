import type { Server } from 'node:http';
import { parseMultipart } from '@remix-run/multipart-parser/node';
import Ajv, { type ValidateFunction } from 'ajv';
import request from 'supertest';

/**
 * Every response an e2e test receives through supertest is checked against the operation of the OpenAPI document
 * the service serves for it: its status must be declared, a JSON body must satisfy the declared schema (unknown
 * properties refused, as the schemas say), any other body must have a declared content type; the headers a client
 * relies on (DESCRIBED_HEADERS) must be declared when sent, sent when declared required, and match their schemas
 * (integers as digits). A response the
 * document does not describe fails the request as a failed expectation would. Paths outside every document (health,
 * metrics, the signing page) are not checked; an unknown path may only answer 404.
 *
 * The JSON body of every request is checked against the same operation: a body its schema refuses must not be
 * accepted (2xx), and a body its schema accepts must not be refused with 400, unless the test marks the request
 * `refusedByRule` (a rule the document cannot express). Multi-call parts are checked as the calls they stand for.
 */

interface DeclaredResponse {
  content?: Record<string, { schema?: object }>;
  headers?: Record<string, { schema?: object; required?: boolean }>;
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: object;
}

interface Operation {
  operationId?: string;
  callbacks?: Record<string, Record<string, Record<string, Operation>>>;
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: object }> };
  responses: Record<string, DeclaredResponse>;
}

/**
 * Headers whose meaning a client relies on: a response that sends one must declare it. (Others, such as Date,
 * Content-Length or X-Request-ID, belong to HTTP or the platform and are not described per operation.)
 */
const DESCRIBED_HEADERS = [
  'x-svc-total',
  'last-modified',
  'cache-control',
  'expires',
  'retry-after',
  'www-authenticate',
];

interface OpenApiDocument {
  servers?: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, object> };
}

/** A served document with what is needed to match and check responses against it. */
interface DocumentCheck {
  document: OpenApiDocument;
  /** The server base paths as patterns, `{tenant}` any segment. */
  bases: RegExp[];
  /** The document's paths, each as the pattern of its template. */
  paths: { pattern: RegExp; names: string[]; item: Record<string, Operation> }[];
  ajv: Ajv;
  validators: Map<object, ValidateFunction>;
}

/** Where each interface serves its document, by the paths it covers (area C's interfaces under any tenant). */
const DOCUMENTS: { covers: RegExp; at: (path: string) => string }[] = [
  {
    covers: /^\/service\/([^/]+)\/(employee|broker)\/(v1|1\.0)\/rest(\/|$)/,
    at: (path) =>
      path.replace(/^(\/service\/[^/]+\/(?:employee|broker))\/(v1|1\.0)\/rest.*$/, '$1/v1/rest/openapi.json'),
  },
  { covers: /^\/api\/v1\/(import|list|processes)(\/|$)/, at: () => '/api/v1/openapi.json' },
  { covers: /^\/api\/(login|v1\/calculate)(\/|$)/, at: () => '/api/doc/v1/swagger.json' },
  { covers: /^\/admin\/v1(\/|$)/, at: () => '/admin/v1/openapi.json' },
];

const documents = new WeakMap<object, Map<string, Promise<DocumentCheck | undefined>>>();

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A path template (`/{ma}/kunden/{customerId}`) as a pattern of its segments, ending with `end`. */
const pattern = (template: string, end = '$') =>
  new RegExp(
    `^${template
      .split(/\{[^}]+\}/)
      .map(escaped)
      .join('([^/]+)')}${end}`,
  );

async function documentOf(app: object, documentPath: string): Promise<DocumentCheck | undefined> {
  const byPath = documents.get(app) ?? new Map<string, Promise<DocumentCheck | undefined>>();
  documents.set(app, byPath);
  let check = byPath.get(documentPath);
  if (!check) {
    check = fetchDocument(app, documentPath);
    byPath.set(documentPath, check);
  }
  return check;
}

async function fetchDocument(app: object, documentPath: string): Promise<DocumentCheck | undefined> {
  const response = await unchecked(request(app as Server).get(documentPath));
  if (response.status !== 200) return undefined;
  const document = response.body as OpenApiDocument;
  return {
    document,
    bases: (document.servers ?? [{ url: '' }]).map((server) =>
      pattern(server.url.replace(/\/$/, ''), '(?=/|$)'),
    ),
    paths: Object.entries(document.paths).map(([template, item]) => ({
      pattern: pattern(template),
      names: [...template.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]),
      item,
    })),
    ajv: new Ajv({ strict: false, allErrors: true, validateFormats: false }),
    validators: new Map(),
  };
}

/** The documented operation `method url` of `app` is, with the path's parameters; undefined when no document covers it. */
async function operationOf(
  app: object,
  method: string,
  url: string,
): Promise<
  { check: DocumentCheck; operation?: Operation; path: string; pathValues: Map<string, string> } | undefined
> {
  const path = new URL(url, 'http://localhost').pathname;
  const covering = DOCUMENTS.find((entry) => entry.covers.test(path));
  if (!covering || path.endsWith('/openapi.json')) return undefined;
  const check = await documentOf(app, covering.at(path));
  if (!check) return undefined;
  const relative = relativePath(check, path) ?? '';
  for (const entry of check.paths) {
    const values = entry.pattern.exec(relative);
    if (!values) continue;
    return {
      check,
      operation: entry.item[method.toLowerCase()],
      path,
      pathValues: new Map(entry.names.map((name, index) => [name, decodedSegment(values[index + 1] ?? '')])),
    };
  }
  return { check, path, pathValues: new Map() };
}

/** A path segment decoded; as sent when its percent-encoding is broken (the service refuses it). */
function decodedSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * What is wrong with the response to `method url` of `app` (the server supertest was given), or undefined when
 * the served document describes it or covers no such path.
 */
export async function undocumentedResponse(
  app: object,
  method: string,
  url: string,
  response: Pick<request.Response, 'status' | 'headers' | 'body'>,
): Promise<string | undefined> {
  const found = await operationOf(app, method, url);
  if (!found) return undefined;
  const { check, operation, path } = found;
  if (!operation)
    return response.status === 404 || response.status === 405
      ? undefined
      : `${method} ${path} answered ${response.status}, but the document has no such operation`;
  const declared = operation.responses[String(response.status)] ?? operation.responses.default;
  if (!declared) return `${method} ${path} answered ${response.status}, which its operation does not declare`;
  const what = `${method} ${path} (${response.status})`;
  return headerProblem(check, declared, response, what) ?? bodyProblem(check, declared, response, what);
}

/** A request as sent: its headers and its body (an object supertest serialised, or the bytes). */
export interface SentRequest {
  /** Lower-case names. */
  headers?: Record<string, string>;
  body?: unknown;
  /** The test says the body breaks a rule of the service that the document cannot express (refusedByRule). */
  refusedByRule?: boolean;
}

/**
 * What is wrong between a JSON request body and the answer to it, or undefined: a body the served document
 * refuses must not be accepted (2xx), and one it accepts must not be refused as invalid (400) unless the test says
 * the body breaks a rule beyond the document.
 */
export async function undocumentedRequest(
  app: object,
  method: string,
  url: string,
  sent: SentRequest,
  response: Pick<request.Response, 'status' | 'body'>,
): Promise<string | undefined> {
  const found = await operationOf(app, method, url);
  const operation = found?.operation;
  const schema = operation?.requestBody?.content?.['application/json']?.schema;
  const body = jsonBodyOf(sent);
  if (!found || !operation || !schema || body === undefined) return undefined;
  const validate = validatorOf(found.check, schema);
  const what = `${method} ${found.path} (${response.status})`;
  const valid = validate(body.value);
  if (!valid && response.status < 300)
    return `${what}: the service accepted a body its document refuses: ${found.check.ajv.errorsText(validate.errors)}`;
  const refusedParameter = undocumentedParameter(found.check, operation, url, {
    pathValues: found.pathValues,
    headers: sent.headers,
  });
  if (valid && !refusedParameter && response.status === 400 && !sent.refusedByRule)
    return (
      `${what}: the service refused a body its document accepts (${JSON.stringify(response.body)}); ` +
      'a test of a rule the document cannot express says so with refusedByRule()'
    );
  return undefined;
}

/**
 * What is wrong with a request the service sent (a webhook delivery) for the callback `name` of the operation
 * `operationId` in the document `app` serves at `documentPath`: a required header missing or not of its schema, or
 * a JSON body its schema refuses. Undefined when the document describes it.
 */
export async function undocumentedCallback(
  app: object,
  documentPath: string,
  operationId: string,
  name: string,
  delivery: { headers: Record<string, string | string[] | undefined>; body: string },
): Promise<string | undefined> {
  const check = await documentOf(app, documentPath);
  const operation = Object.values(check?.document.paths ?? {})
    .flatMap((item) => Object.values(item))
    .find((candidate) => candidate.operationId === operationId);
  const expression = Object.values(operation?.callbacks?.[name] ?? {})[0];
  const callback = expression?.post;
  if (!check || !callback) return `${operationId} has no callback ${name} with a POST`;
  const headers = Object.fromEntries(
    Object.entries(delivery.headers).flatMap(([header, value]) =>
      typeof value === 'string' ? [[header, value]] : [],
    ),
  );
  const parameter = undocumentedParameter(check, callback, 'http://localhost/', {
    pathValues: new Map(),
    headers,
  });
  if (parameter) return `callback ${name}: the header ${parameter} is missing or not of its schema`;
  const schema = callback.requestBody?.content?.['application/json']?.schema;
  if (!schema) return `callback ${name}: no JSON body is declared`;
  const validate = validatorOf(check, schema);
  if (validate(JSON.parse(delivery.body))) return undefined;
  return `callback ${name}: the body does not match its schema: ${check.ajv.errorsText(validate.errors)}`;
}

/** The first parameter (path, query or header) the request lacks or has in a form its document refuses, if any. */
function undocumentedParameter(
  check: DocumentCheck,
  operation: Operation,
  url: string,
  sent: { pathValues: Map<string, string>; headers?: Record<string, string> },
): string | undefined {
  const query = new URL(url, 'http://localhost').searchParams;
  const valueOf = (parameter: Parameter): string | undefined => {
    if (parameter.in === 'path') return sent.pathValues.get(parameter.name);
    if (parameter.in === 'header') return sent.headers?.[parameter.name.toLowerCase()];
    return query.get(parameter.name) ?? undefined;
  };
  return (operation.parameters ?? []).find((parameter) => {
    const value = valueOf(parameter);
    if (value === undefined) return parameter.required === true;
    return (
      parameter.schema !== undefined &&
      !validatorOf(check, parameter.schema)(typedValue(value, parameter.schema))
    );
  })?.name;
}

/** The parsed JSON body of a request, when it has one. */
function jsonBodyOf(sent: SentRequest): { value: unknown } | undefined {
  const contentType = sent.headers?.['content-type'];
  if (!contentType?.split(';')[0]?.trim().toLowerCase().endsWith('json') || sent.body === undefined)
    return undefined;
  // As the JSON sent: undefined properties left out, dates as strings.
  if (!Buffer.isBuffer(sent.body) && typeof sent.body !== 'string')
    return { value: JSON.parse(JSON.stringify(sent.body)) as unknown };
  try {
    return { value: JSON.parse(sent.body.toString('utf8')) as unknown };
  } catch {
    return undefined; // malformed JSON: the response check sees its 400
  }
}

function relativePath(check: DocumentCheck, path: string): string | undefined {
  for (const base of check.bases) {
    const match = base.exec(path);
    if (match) return path.slice(match[0].length) || '/';
  }
  return undefined;
}

function headerProblem(
  check: DocumentCheck,
  declared: DeclaredResponse,
  response: Pick<request.Response, 'headers'>,
  what: string,
): string | undefined {
  const headers = new Map(
    Object.entries(declared.headers ?? {}).map(([name, header]) => [name.toLowerCase(), header]),
  );
  const sent = (name: string): string | undefined => {
    const value: unknown = response.headers[name];
    if (typeof value === 'string') return value;
    return Array.isArray(value) ? value.join(', ') : undefined;
  };
  const undeclared = DESCRIBED_HEADERS.find((name) => sent(name) !== undefined && !headers.has(name));
  if (undeclared) return `${what}: sends ${undeclared}, which the document does not declare`;
  for (const [name, header] of headers) {
    const value = sent(name);
    if (value === undefined) {
      if (header.required) return `${what}: the document declares ${name} required, but it was not sent`;
      continue;
    }
    if (header.schema && !validatorOf(check, header.schema)(typedValue(value, header.schema)))
      return `${what}: header ${name}: ${value} does not match its schema ${JSON.stringify(header.schema)}`;
  }
  return undefined;
}

/** A header's or query parameter's text as its schema's type: digits as a number for an integer. */
function typedValue(text: string, schema: { type?: string }): unknown {
  return (schema.type === 'integer' || schema.type === 'number') && /^-?\d+(\.\d+)?$/.test(text)
    ? Number(text)
    : text;
}

function validatorOf(check: DocumentCheck, schema: object): ValidateFunction {
  let validate = check.validators.get(schema);
  if (!validate) {
    // The schema's references point into the document's components.
    validate = check.ajv.compile({ components: check.document.components, allOf: [schema] });
    check.validators.set(schema, validate);
  }
  return validate;
}

function bodyProblem(
  check: DocumentCheck,
  declared: DeclaredResponse,
  response: Pick<request.Response, 'headers' | 'body'>,
  what: string,
): string | undefined {
  const contentType =
    String(response.headers['content-type'] ?? '')
      .split(';')[0]
      ?.trim() ?? '';
  const content = declared.content ?? {};
  if (!contentType) return undefined;
  if (!(contentType in content)) return `${what}: Content-Type ${contentType} is not declared`;
  const schema = content[contentType]?.schema;
  if (contentType !== 'application/json' || !schema) return undefined;
  const validate = validatorOf(check, schema);
  const body: unknown = Buffer.isBuffer(response.body)
    ? JSON.parse(response.body.toString('utf8'))
    : response.body;
  if (validate(body)) return undefined;
  return `${what}: the body does not match its schema: ${check.ajv.errorsText(validate.errors)}`;
}

const UNCHECKED = Symbol('unchecked');

/** A request whose response is not checked (the checker's own requests for documents). */
function unchecked(test: request.Test): request.Test {
  return Object.assign(test, { [UNCHECKED]: true });
}

type Callback = (error: Error | null, res: request.Response | undefined) => void;
type Assert = (resError: Error | null, res: request.Response | undefined, fn: Callback) => void;
interface SentTest {
  app: object;
  method: string;
  url: string;
  /** What send() was given, and the request headers (lower-case names). */
  _data?: unknown;
  _header?: Record<string, string>;
  [UNCHECKED]?: boolean;
  [REFUSED_BY_RULE]?: boolean;
}

const REFUSED_BY_RULE = Symbol('refusedByRule');

/**
 * Marks a request whose body the served document accepts but a rule of the service refuses with 400 (a date that
 * does not exist, a customer of another broker): the request check then expects no more than the document says.
 */
export function refusedByRule<Test extends request.Test>(test: Test): Test {
  return Object.assign(test, { [REFUSED_BY_RULE]: true });
}

const boundaryOf = (contentType: string | undefined) => /boundary="?([^";]+)"?/.exec(contentType ?? '')?.[1];

/** The parts of a multipart body, a preamble before the first boundary left out (RFC 2046 allows one). */
function partsOf(body: unknown, boundary: string) {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(typeof body === 'string' ? body : '');
  const start = Math.max(0, bytes.indexOf(`--${boundary}`));
  return [...parseMultipart(bytes.subarray(start), { boundary })].map((part) => ({
    headers: Object.fromEntries(
      Object.entries(part.headers).filter((entry): entry is [string, string] => entry[1] !== undefined),
    ),
    bytes: Buffer.from(part.bytes),
  }));
}

/** Content-Transfer-Encodings that leave a part's body as it is. */
const IDENTITY_ENCODINGS = new Set(['7bit', '8bit', 'binary']);

/**
 * A multi-call part as the request it stands for: the outer request's headers with the part's own. A body in a
 * transfer encoding is not checked.
 */
const sentPart = (
  outer: Record<string, string> | undefined,
  part: { headers: Record<string, string>; bytes: Buffer },
): SentRequest => {
  const encoding = part.headers['content-transfer-encoding']?.toLowerCase() ?? '7bit';
  const readable = IDENTITY_ENCODINGS.has(encoding) && part.bytes.length > 0;
  return {
    headers: { ...outer, ...part.headers },
    body: readable ? part.bytes : undefined,
  };
};

/**
 * The answer parts of a multi-call, each checked as the single call its request part named. A part refused before
 * it became a call (a malformed part, answered 400) names no documented operation and is left out.
 */
async function multiCallProblem(test: SentTest, res: request.Response): Promise<string | undefined> {
  const answerBoundary = boundaryOf(res.headers['content-type']);
  const requestBoundary = boundaryOf(test._header?.['content-type']);
  if (!answerBoundary || !requestBoundary || !Buffer.isBuffer(res.body) || test._data === undefined)
    return undefined;
  const calls = new Map(
    partsOf(test._data, requestBoundary).map((part) => [part.headers['content-id'], part]),
  );
  const base = new URL(test.url, 'http://localhost').pathname.replace(/\/$/, '');
  for (const answer of partsOf(res.body, answerBoundary)) {
    const call = calls.get(answer.headers['x-svc-request-id']);
    const method = call?.headers['x-svc-method']?.toUpperCase();
    const path = call?.headers['x-svc-path'];
    const status = Number(answer.headers['x-svc-status']?.split(' ')[0]);
    if (!call || !method || !path) continue;
    const contentType = answer.headers['content-type'] ?? '';
    const body: unknown = contentType.startsWith('application/json')
      ? JSON.parse(answer.bytes.toString('utf8'))
      : answer.bytes;
    const url = path.startsWith('/service/') ? path : `${base}${path}`;
    const problem =
      (await undocumentedResponse(test.app, method, url, { status, headers: answer.headers, body })) ??
      (await undocumentedRequest(
        test.app,
        method,
        url,
        { ...sentPart(test._header, call), refusedByRule: test[REFUSED_BY_RULE] },
        { status, body },
      ));
    if (problem && !(status === 400 && problem.includes('no such operation')))
      return `multi-call part: ${problem}`;
  }
  return undefined;
}

/** Installs the check on every supertest request of the test file (a jest setupFilesAfterEnv module calls it). */
export function checkResponsesAgainstDocuments(): void {
  const prototype = request.Test.prototype as unknown as { assert: Assert };
  const original = prototype.assert;
  prototype.assert = function (this: SentTest, resError, res, fn) {
    // A response with a 4xx or 5xx status comes with a resError too; only no response at all is skipped.
    if (!res || this[UNCHECKED]) return original.call(this, resError, res, fn);
    const sent = {
      headers: this._header,
      body: this._data,
      refusedByRule: this[REFUSED_BY_RULE],
    };
    const problems = async () =>
      (await undocumentedResponse(this.app, this.method, this.url, res)) ??
      (await undocumentedRequest(this.app, this.method, this.url, sent, res)) ??
      (String(res.headers['content-type']).startsWith('multipart/related')
        ? multiCallProblem(this, res)
        : undefined);
    problems().then(
      (problem) =>
        problem
          ? fn(new Error(`Undocumented exchange: ${problem}`), res)
          : original.call(this, resError, res, fn),
      (error: unknown) => fn(error instanceof Error ? error : new Error(String(error)), res),
    );
  };
}
