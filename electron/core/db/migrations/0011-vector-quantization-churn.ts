import type { Migration } from './types';

/**
 * How far a model's collection has changed since its mean was taken and its oversampling measured,
 * counted in writes rather than in size: replacing documents (a re-import with another chunker, a
 * folder swapped for another) keeps the count but not the geometry the bits and the factor were
 * fitted to. Both hold the `bits_version` at that moment (every write of bits bumps it by one), so
 * the writes since are the difference. Null (rows from before this): nothing is known, and the
 * next rebuild or calibration sets it.
 */
export const migration0011: Migration = {
  version: 11,
  name: 'vector-quantization-churn',
  up: `
    ALTER TABLE vector_quantization ADD COLUMN mean_version INTEGER;
    ALTER TABLE vector_quantization ADD COLUMN calibrated_version INTEGER;
  `,
};
