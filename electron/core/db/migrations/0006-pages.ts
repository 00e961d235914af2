import type { Migration } from './types';

/**
 * Pages for paged formats (PDF): the first and last page a chunk's text comes from, 1-based and
 * inclusive, so a citation can say "p. 12". NULL for formats without pages (Markdown, text), and
 * for every chunk written before this migration (none of them was a PDF).
 */
export const migration0006: Migration = {
  version: 6,
  name: 'pages',
  up: `
    ALTER TABLE chunks ADD COLUMN page_start INTEGER;
    ALTER TABLE chunks ADD COLUMN page_end INTEGER;
  `,
};
