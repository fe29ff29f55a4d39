import { applyDecorators, type INestApplication } from '@nestjs/common';
import { ApiQuery, ApiResponse, DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage.js';
import { IS_OPTIONAL, ValidationTypes } from 'class-validator';
import { targetConstructorToSchema, validationMetadatasToSchemas } from 'class-validator-jsonschema';
import { NULL_ALTERNATIVE } from '@broker/contracts';

/** A schema component (or a reference to one) of an OpenAPI document. */
export type SchemaObject = NonNullable<NonNullable<OpenAPIObject['components']>['schemas']>[string];

type PathItem = OpenAPIObject['paths'][string];
type Operation = NonNullable<PathItem['get']>;
type ParameterObject = Extract<NonNullable<Operation['parameters']>[number], { in: string }>;
/** An operation of a callback: a request the service sends (a webhook delivery). */
export type CallbackOperation = Operation;
type ResponseObject = Extract<Operation['responses'][string], { description: string }>;
type HeaderObject = NonNullable<ResponseObject['headers']>[string];

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** How an area answers what goes wrong: its error body, the statuses any operation may give, their meaning. */
export interface OpenApiErrors {
  /** The name of the error body's schema component (in `schemas`, or of `model`). */
  schema: string;
  /** The class whose @ApiProperty decorators describe the error body, when it is not in `schemas`. */
  model?: new () => object;
  /** Client errors and 503 any operation may answer, by status, with what they mean in this area. */
  statuses: Record<number, string>;
  /** Headers those answers carry, by status (503 always has Retry-After). */
  headers?: Record<number, Record<string, HeaderObject>>;
}

export interface OpenApiSettings {
  title: string;
  description: string;
  version: string;
  /** Only routes whose path starts with this prefix are described. */
  pathPrefix: string;
  /** Security schemes by name. */
  securitySchemes?: Record<string, Parameters<DocumentBuilder['addSecurity']>[1]>;
  /** The alternative ways to authenticate (each a set of schemes sent together), for every operation. */
  security?: Record<string, string[]>[];
  /** Schema components no DTO generates, by name (e.g. an enumeration the DTOs refer to). */
  schemas?: Record<string, SchemaObject>;
  /**
   * The base paths the interface is served at, the preferred first (`{name}` for a server variable). The paths
   * are described relative to them (`pathPrefix` is left out).
   */
  servers: { url: string; description: string }[];
  serverVariables?: Record<string, { default: string; description: string }>;
  /** Operations anyone may call (e.g. a login), by operationId: described with no security. */
  publicOperations?: string[];
  /** Header parameters every operation takes (read by guards or interceptors, not by the handlers). */
  headerParameters?: ParameterObject[];
  /**
   * Path parameters by name: those the routes read outside their handlers (in guards), described on every path
   * having them, and the schema of any path parameter whose pipe accepts only some values.
   */
  pathParameters?: Record<string, { description?: string; example?: string; schema?: SchemaObject }>;
  /** The callbacks of operations, by operationId: the requests the service sends after them (webhook deliveries). */
  callbacks?: Record<string, NonNullable<Operation['callbacks']>>;
  errors: OpenApiErrors;
}

/** Retry-After on a 503 or 429: the seconds to wait before trying again. */
export const RETRY_AFTER_HEADER: HeaderObject = {
  description: 'Seconds to wait before trying again',
  required: true,
  schema: { type: 'integer', minimum: 0 },
};

/** The challenge of a refused bearer token (RFC 6750 §3). */
export function wwwAuthenticateHeader(required: boolean): HeaderObject {
  return {
    description:
      'The bearer challenge: `Bearer error="invalid_token"` or `"insufficient_scope"` with a description',
    required,
    schema: { type: 'string' },
  };
}

/** Cache-Control of an answer no cache may keep (a token, a batch of calls, a download): always `value`. */
export function noStoreHeader(value: 'no-store' | 'private, no-store'): HeaderObject {
  return {
    description: `\`${value}\`: no cache may keep the answer`,
    required: true,
    schema: { type: 'string', enum: [value] },
  };
}

/** Any operation's server fault: a plain page naming the request id, never details. */
const SERVER_FAULT: ResponseObject = {
  description: 'Server fault: an HTML page with the request id (the log has the details)',
  content: { 'text/html': { schema: { type: 'string' } } },
};

/**
 * An OpenAPI 3 description generated from the application itself: the routes and parameters from the
 * controllers (@nestjs/swagger), the request schemas from the class-validator decorators of the DTOs
 * (class-validator-jsonschema), so the description cannot drift from what the service validates.
 */
export function createOpenApiDocument(app: INestApplication, settings: OpenApiSettings): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle(settings.title)
    .setDescription(settings.description)
    .setVersion(settings.version)
    .setOpenAPIVersion('3.0.3');
  for (const [name, scheme] of Object.entries(settings.securitySchemes ?? {}))
    builder.addSecurity(name, scheme);
  const document = SwaggerModule.createDocument(app, builder.build(), {
    extraModels: settings.errors.model ? [settings.errors.model] : [],
  });
  if (settings.security) document.security = settings.security;
  document.servers = settings.servers.map((server) => ({
    ...server,
    ...(settings.serverVariables && { variables: settings.serverVariables }),
  }));
  document.paths = Object.fromEntries(
    Object.entries(document.paths)
      .filter(([path]) => path === settings.pathPrefix || path.startsWith(`${settings.pathPrefix}/`))
      .map(([path, item]) => [path.slice(settings.pathPrefix.length) || '/', item]),
  );
  for (const [path, item] of Object.entries(document.paths))
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (operation) completeOperation(path, operation, settings);
    }
  const schemas = {
    ...document.components?.schemas,
    ...requestSchemas(),
    ...settings.schemas,
  };
  document.components = { ...document.components, schemas: referencedSchemas(document.paths, schemas) };
  return document;
}

/**
 * The request bodies' schemas, from the class-validator decorators of the DTOs, with what the validation pipe does
 * beyond the schema converter: `@IsOptional()` lets null through as well as absence (null clears a stored field;
 * a field that null keeps instead says so in its description), and properties a DTO does not declare are refused.
 */
function requestSchemas(): Record<string, SchemaObject> {
  const schemas = validationMetadatasToSchemas({
    classTransformerMetadataStorage: defaultMetadataStorage,
    refPointerPrefix: '#/components/schemas/',
    additionalConverters: {
      [ValidationTypes.CONDITIONAL_VALIDATION]: (meta) =>
        meta.name === IS_OPTIONAL ? { nullable: true } : {},
    },
  }) as Record<string, SchemaObject & { properties?: Record<string, SchemaObject> }>;
  return Object.fromEntries(
    Object.entries(schemas).map(([name, schema]) => [
      name,
      {
        additionalProperties: false,
        ...schema,
        properties: Object.fromEntries(
          Object.entries(schema.properties ?? {}).map(([property, value]) => [property, withNull(value)]),
        ),
      },
    ]),
  );
}

/**
 * A nullable property as OpenAPI 3.0 tools read it: `nullable` takes effect only beside `type`, so a reference
 * or a union gets null as an alternative, and an enumeration lists null among its values.
 */
const NULL: SchemaObject = { ...NULL_ALTERNATIVE, enum: [null] };

function withNull(schema: SchemaObject): SchemaObject {
  if (!('nullable' in schema) || !schema.nullable) return schema;
  const { nullable, ...rest } = schema;
  // A nested DTO: its reference beside `type: object` (IsObject), which the reference already says.
  if ('$ref' in rest)
    return {
      ...(rest.description && { description: rest.description }),
      anyOf: [{ $ref: rest.$ref as string }, NULL],
    };
  if (rest.type !== undefined)
    return { ...rest, nullable, ...(rest.enum && { enum: [...(rest.enum as unknown[]), null] }) };
  if (rest.anyOf) return { ...rest, anyOf: [...rest.anyOf, NULL] };
  if (rest.oneOf) return { ...rest, oneOf: [...rest.oneOf, NULL] };
  return rest; // no type: null is one of the values it takes already
}

/** Declares the path parameters the handler does not, and the area's error answers and the server fault. */
function completeOperation(path: string, operation: Operation, settings: OpenApiSettings): void {
  const declared = new Set(
    (operation.parameters ?? []).flatMap((parameter) => ('in' in parameter ? [parameter.name] : [])),
  );
  const missing = [...path.matchAll(/\{([^}]+)\}/g)]
    .map((match) => match[1])
    .filter((name) => !declared.has(name));
  const parameters: ParameterObject[] = missing.map((name) => ({
    name,
    in: 'path',
    required: true,
    description: settings.pathParameters?.[name]?.description,
    example: settings.pathParameters?.[name]?.example,
    schema: { type: 'string' },
  }));
  operation.parameters = [
    ...parameters,
    ...(operation.parameters ?? []),
    ...(settings.headerParameters ?? []),
  ].map((parameter) => {
    const schema =
      'in' in parameter && parameter.in === 'path' && settings.pathParameters?.[parameter.name]?.schema;
    return schema ? { ...parameter, schema } : parameter;
  });
  const errorBody = {
    'application/json': { schema: { $ref: `#/components/schemas/${settings.errors.schema}` } },
  };
  const headers: Record<string, Record<string, HeaderObject>> = {
    ...settings.errors.headers,
    503: { 'Retry-After': RETRY_AFTER_HEADER },
  };
  for (const [status, description] of Object.entries(settings.errors.statuses))
    operation.responses[status] ??= {
      description,
      content: errorBody,
      ...(headers[status] && { headers: headers[status] }),
    };
  if (operation.requestBody) {
    const accepted = Object.keys((operation.requestBody as { content?: object }).content ?? {}).join(' or ');
    operation.responses['415'] ??= {
      description: `The body is not ${accepted} (or has no Content-Type)`,
      content: errorBody,
    };
  }
  operation.responses['500'] ??= SERVER_FAULT;
  const callbacks = settings.callbacks?.[operation.operationId ?? ''];
  if (callbacks) operation.callbacks = callbacks;
  if (settings.publicOperations?.includes(operation.operationId ?? '')) operation.security = [];
}

/**
 * Describes the query parameters of a handler from the class-validator DTO its `@Query()` takes (names, types,
 * limits, required), so the document cannot drift from what the service validates.
 */
export function ApiQueryParameters(dto: new () => object): MethodDecorator {
  const schema = targetConstructorToSchema(dto, { classTransformerMetadataStorage: defaultMetadataStorage });
  const required = new Set(schema.required ?? []);
  return applyDecorators(
    ...Object.entries(schema.properties ?? {}).map(([name, property]) =>
      ApiQuery({
        name,
        required: required.has(name),
        schema: property as SchemaObject,
        description: (property as { description?: string }).description,
      }),
    ),
  );
}

export interface JsonAnswerOptions {
  /** 200 unless set. */
  status?: number;
  /** An array of the schema. */
  array?: boolean;
  description?: string;
  headers?: Record<string, HeaderObject>;
  /** A list revalidated with Last-Modified: its headers, and 304 Not Modified for If-Modified-Since. */
  revalidated?: boolean;
}

/** The headers of a list a client revalidates (Last-Modified, If-Modified-Since). */
const REVALIDATION_HEADERS: Record<string, HeaderObject> = {
  'Last-Modified': {
    description: 'When the list last changed (HTTP date)',
    required: true,
    schema: { type: 'string' },
  },
  'Cache-Control': {
    description: 'How long a client may use the list without asking',
    required: true,
    schema: { type: 'string' },
  },
};

/**
 * The JSON answer of an operation, a schema component by name (`RESPONSE_SCHEMAS` of libs/contracts, generated
 * from the types the services answer with).
 */
export function ApiJsonAnswer(schema: string, options: JsonAnswerOptions = {}): MethodDecorator {
  const ref = { $ref: `#/components/schemas/${schema}` };
  const answer = ApiResponse({
    status: options.status ?? 200,
    description: options.description ?? 'OK',
    schema: options.array ? { type: 'array', items: ref } : ref,
    headers: { ...(options.revalidated && REVALIDATION_HEADERS), ...options.headers },
  });
  if (!options.revalidated) return answer;
  return applyDecorators(
    answer,
    ApiResponse({
      status: 304,
      description: 'Not Modified: the list has not changed since If-Modified-Since (no body)',
      headers: REVALIDATION_HEADERS,
    }),
  );
}

const SCHEMA_REFERENCE = /"\$ref":"#\/components\/schemas\/([^"]+)"/g;

/**
 * Only the schemas the described operations use, directly or through other schemas: the metadata storage
 * holds every DTO the process loaded, including other services' DTOs from the shared libraries.
 */
function referencedSchemas(
  paths: object,
  schemas: Record<string, SchemaObject>,
): Record<string, SchemaObject> {
  const kept: Record<string, SchemaObject> = {};
  const pending = [...JSON.stringify(paths).matchAll(SCHEMA_REFERENCE)].map((match) => match[1]);
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    const schema = schemas[name];
    if (schema === undefined || name in kept) continue;
    kept[name] = schema;
    for (const match of JSON.stringify(schema).matchAll(SCHEMA_REFERENCE)) pending.push(match[1]);
  }
  return Object.fromEntries(
    Object.keys(kept)
      .sort()
      .map((name) => [name, kept[name]]),
  );
}
