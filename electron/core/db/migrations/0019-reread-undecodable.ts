import type { Migration } from './types';

/**
 * Files refused as "not valid UTF-8" were remembered as failed for good (ingest/pipeline.ts
 * knownFailure: the same bytes, the same reader version). A text file that is not UTF-8 is now read
 * in the legacy encoding its bytes point to (readers/decode.ts guessEncoding), so those files are
 * marked to be read again at the next import of their folder: a modification time no file has.
 */
export const migration0019: Migration = {
  version: 19,
  name: 'reread-undecodable',
  up: `UPDATE documents SET mtime_ms = -1 WHERE status_code = 'UNDECODABLE_TEXT';`,
};
