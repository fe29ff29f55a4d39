import type { ValueTransformer } from 'typeorm';

/**
 * PostgreSQL returns bigint as a string. Amounts in cents stay far below 2^53, so they are safe as numbers.
 */
export const bigintAsNumber: ValueTransformer = {
  to: (value: number | null | undefined) => value,
  from: (value: string | null) => (value === null ? null : Number(value)),
};
