import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage.js';
import { validationMetadatasToSchemas } from 'class-validator-jsonschema';

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
  document.components = {
    ...document.components,
    schemas: {
      ...document.components?.schemas,
      ...(dtoSchemas as NonNullable<OpenAPIObject['components']>['schemas']),
    },
  };
  return document;
}
