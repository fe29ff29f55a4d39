/**
 * Null as an alternative of a union in an OpenAPI 3.0 schema. 3.0 has no type null and takes `nullable` only
 * beside a `type` (a $ref takes no siblings), so null is an enum of just null, as the 3.0.3 clarification
 * describes.
 */
export const NULL_ALTERNATIVE = { type: 'string', nullable: true, enum: [null] } as const;
