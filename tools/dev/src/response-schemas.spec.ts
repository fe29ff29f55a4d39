import 'reflect-metadata';
import { RESPONSE_SCHEMAS } from '@broker/contracts';
import { readFileSync } from 'node:fs';
import {
  generateResponseSchemas,
  RESPONSE_SCHEMAS_FILE,
  responseSchemasSource,
  toOpenApi30,
} from './response-schemas.js';

describe('response schemas of the OpenAPI documents', () => {
  it('are what the response types of libs/contracts give today (else run pnpm openapi:schemas)', () => {
    expect(RESPONSE_SCHEMAS).toEqual(generateResponseSchemas());
    expect(responseSchemasSource(RESPONSE_SCHEMAS)).toContain('export const RESPONSE_SCHEMAS');
    // Byte for byte, so a hand edit of the generated file fails too.
    expect(readFileSync(RESPONSE_SCHEMAS_FILE, 'utf8')).toBe(
      responseSchemasSource(generateResponseSchemas()),
    );
  });

  it('speak OpenAPI 3.0: no type null, no const, references into the components', () => {
    expect(
      toOpenApi30({
        type: 'object',
        properties: {
          a: { type: ['string', 'null'] },
          b: { anyOf: [{ $ref: '#/definitions/X' }, { type: 'null' }] },
          c: { type: ['string', 'boolean', 'null'] },
          d: { type: 'string', const: 'natuerlich' },
        },
      }),
    ).toEqual({
      type: 'object',
      properties: {
        a: { type: 'string', nullable: true },
        b: { anyOf: [{ $ref: '#/components/schemas/X' }, { type: 'string', nullable: true, enum: [null] }] },
        c: {
          anyOf: [{ type: 'string' }, { type: 'boolean' }, { type: 'string', nullable: true, enum: [null] }],
        },
        d: { type: 'string', enum: ['natuerlich'] },
      },
    });
  });
});
