import type { Migration } from './types';

/**
 * A second calibrated factor for searches deeper than ten: hybrid search fuses each list 50 deep,
 * and how many candidates a 50-deep search needs is measured like the top-10 factor, not assumed to
 * be the same multiple (at 100k × 768 the top-10 factor × 50 read 1,600 candidates where 400–640
 * reached the same recall at depth 50). Null recall: not measured yet, and searches use the top-10
 * factor at every depth, as before, until the next upkeep measures it.
 */
export const migration0012: Migration = {
  version: 12,
  name: 'vector-quantization-depth',
  up: `
    ALTER TABLE vector_quantization ADD COLUMN depth_oversampling INTEGER;
    ALTER TABLE vector_quantization ADD COLUMN recall_at_depth REAL;
  `,
};
