import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { createGenerator, type Definition } from 'ts-json-schema-generator';
import { NULL_ALTERNATIVE } from '@broker/contracts';
import { findWorkspaceRoot } from '@broker/local-services';

/**
 * The OpenAPI 3.0 schemas of the services' response bodies, generated from the TypeScript types the services
 * answer with (libs/contracts), so the documents describe what the code returns. Written to
 * libs/contracts/src/response-schemas.ts by `pnpm openapi:schemas`; a test fails when that file is not what the
 * types give today.
 */

/** The response types described, by the names they have in libs/contracts (and in the documents). */
export const RESPONSE_TYPES = [
  'AdresseView',
  'ApiClientCreated',
  'ApiClientPage',
  'ApiClientView',
  'ApiKeyRotated',
  'ArchiveintragView',
  'AuditEventPage',
  'BrokerDetailView',
  'BrokerPage',
  'BrokerView',
  'CalcUserPage',
  'CalcUserView',
  'CompanyAgreementPage',
  'CompanyAgreementView',
  'CompanyPage',
  'CompanyView',
  'EmployeePage',
  'EmployeeView',
  'EnumerationItem',
  'GesellschaftView',
  'ImportDryRunReport',
  'ImportDryRunStarted',
  'ImportProcessEvent',
  'ImportProcessReport',
  'ImportProcessView',
  'ImportStarted',
  'ImportWebhookEvent',
  'KontaktdatensatzView',
  'KundeAngelegt',
  'KundendetailDefinitionView',
  'KundendetailView',
  'KundenSuchErgebnis',
  'KundeView',
  'MasterDataResult',
  'Meldungen',
  'OperatorImportDetail',
  'OperatorImportPage',
  'OperatorImportView',
  'OperatorWebhookEndpointDetail',
  'OperatorWebhookEndpointPage',
  'OutboxMessagePage',
  'OutboxMessageView',
  'RedeliveryResult',
  'TenantPage',
  'TenantView',
  'UntervermittlerView',
  'VertragView',
  'WebhookAttemptView',
  'WebhookEndpointCreated',
  'WebhookEndpointView',
] as const;

const root = findWorkspaceRoot(__dirname);
const CONTRACTS = path.join(root, 'libs/contracts');
export const RESPONSE_SCHEMAS_FILE = path.join(CONTRACTS, 'src/response-schemas.ts');

type Schema = Record<string, unknown>;

/** `#/definitions/X` of JSON Schema is `#/components/schemas/X` in an OpenAPI document. */
const componentRef = (ref: string) => ref.replace('#/definitions/', '#/components/schemas/');

const isNull = (schema: unknown) => (schema as Schema | undefined)?.type === 'null';

/**
 * A JSON Schema (draft 7, as the generator writes it) in OpenAPI 3.0's dialect: `type: [T, "null"]` becomes
 * `nullable`, `const` an enum of one value, a null alternative of `anyOf` an enum of null, references point into
 * the components.
 */
export function toOpenApi30(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toOpenApi30);
  if (typeof schema !== 'object' || schema === null) return schema;
  const result: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$schema' || key === 'definitions') continue;
    if (key === '$ref') result.$ref = componentRef(String(value));
    else if (key === 'const') result.enum = [value];
    else if (key === 'properties' || key === 'patternProperties')
      result[key] = Object.fromEntries(
        Object.entries(value as Schema).map(([name, property]) => [name, toOpenApi30(property)]),
      );
    else result[key] = toOpenApi30(value);
  }
  return withoutNullType(result);
}

function withoutNullType(schema: Schema): Schema {
  if (Array.isArray(schema.type)) {
    const types = (schema.type as string[]).filter((type) => type !== 'null');
    const nullable = types.length < (schema.type as string[]).length;
    if (types.length === 1) return { ...schema, type: types[0], ...(nullable && { nullable: true }) };
    const rest = { ...schema };
    delete rest.type;
    return {
      ...rest,
      anyOf: [...types.map((type) => ({ type })), ...(nullable ? [NULL_ALTERNATIVE] : [])],
    };
  }
  if (Array.isArray(schema.anyOf) && schema.anyOf.some(isNull)) {
    const others = (schema.anyOf as Schema[]).filter((alternative) => !isNull(alternative));
    const [only] = others;
    if (others.length === 1 && only && !('$ref' in only) && 'type' in only) {
      const rest = { ...schema };
      delete rest.anyOf;
      return { ...rest, ...only, nullable: true };
    }
    return { ...schema, anyOf: [...others, NULL_ALTERNATIVE] };
  }
  return schema;
}

/** Every response type and every type they refer to, as OpenAPI 3.0 schema components by name, sorted. */
export function generateResponseSchemas(): Record<string, unknown> {
  const generator = createGenerator({
    path: path.join(CONTRACTS, 'src/index.ts'),
    tsconfig: path.join(CONTRACTS, 'tsconfig.json'),
    type: '*',
    skipTypeCheck: true,
    additionalProperties: false,
    expose: 'export',
    topRef: false,
    jsDoc: 'basic',
  });
  const schemas: Record<string, unknown> = {};
  for (const name of RESPONSE_TYPES) {
    const { definitions = {}, ...schema } = generator.createSchema(name) as Definition & {
      definitions?: Record<string, Definition>;
    };
    schemas[name] = toOpenApi30(schema);
    for (const [other, definition] of Object.entries(definitions)) schemas[other] = toOpenApi30(definition);
  }
  return Object.fromEntries(
    Object.keys(schemas)
      .sort()
      .map((name) => [name, schemas[name]]),
  );
}

/** The source of libs/contracts/src/response-schemas.ts. */
export function responseSchemasSource(schemas: Record<string, unknown>): string {
  return (
    '// Generated by `pnpm openapi:schemas` (tools/dev/src/response-schemas.ts) from the response types of this\n' +
    '// library; do not edit. A test fails when it is not what the types give.\n' +
    `export const RESPONSE_SCHEMAS: Record<string, object> = ${JSON.stringify(schemas, null, 2)};\n`
  );
}

if (require.main === module) {
  writeFileSync(RESPONSE_SCHEMAS_FILE, responseSchemasSource(generateResponseSchemas()));
  process.stdout.write(`wrote ${path.relative(root, RESPONSE_SCHEMAS_FILE)}\n`);
}
