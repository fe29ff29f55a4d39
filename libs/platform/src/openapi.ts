import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage.js';
import { validationMetadatasToSchemas } from 'class-validator-jsonschema';

/** A schema component (or a reference to one) of an OpenAPI document. */
export type SchemaObject = NonNullable<NonNullable<OpenAPIObject['components']>['schemas']>[string];

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
}

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
  const document = SwaggerModule.createDocument(app, builder.build());
  if (settings.security) document.security = settings.security;
  document.paths = Object.fromEntries(
    Object.entries(document.paths).filter(([path]) => path.startsWith(settings.pathPrefix)),
  );
  const dtoSchemas = validationMetadatasToSchemas({
    classTransformerMetadataStorage: defaultMetadataStorage,
    refPointerPrefix: '#/components/schemas/',
  });
  const schemas = {
    ...document.components?.schemas,
    ...(dtoSchemas as Record<string, SchemaObject>),
    ...settings.schemas,
  };
  document.components = { ...document.components, schemas: referencedSchemas(document.paths, schemas) };
  return document;
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
