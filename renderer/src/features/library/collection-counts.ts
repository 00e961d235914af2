import type { Output } from '../../../../shared/contract';

type Collection = Output<'library'>['collections'][number];

export interface CollectionCounts {
  /** Documents in the index, as the status bar counts them (ready or waiting for vectors). */
  indexed: number;
  failed: number;
  skipped: number;
  chunks: number;
}

/**
 * One folder's counts, for its card and its Remove dialog alike: a failed or skipped file has a row
 * in the library but is not a document in the index, so the two must not say different numbers.
 */
export function collectionCounts(collection: Collection): CollectionCounts {
  const failed = collection.documents.filter((d) => d.status === 'error').length;
  const skipped = collection.documents.filter((d) => d.status === 'skipped').length;
  return {
    indexed: collection.documents.length - failed - skipped,
    failed,
    skipped,
    chunks: collection.documents.reduce((s, d) => s + d.chunks, 0),
  };
}
