import type { Migration } from './types';

/** The folders a question was limited to (JSON: [{ id, name }]); '[]' when it asked all of them. */
export const migration0008: Migration = {
  version: 8,
  name: 'run-scope',
  up: `
    ALTER TABLE runs ADD COLUMN scope TEXT NOT NULL DEFAULT '[]';
  `,
};
