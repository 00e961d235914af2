import { formatNumber } from './format';

/**
 * What a new chunk size costs, as Settings and "Use these settings" both say it: the chunker's
 * configuration is part of each document's recipe, so the next import or Re-sync of a folder cuts
 * every one of its files again and embeds the new chunks (ingest/pipeline.ts sameRecipe).
 */
export function recutSentence(indexed: { documents: number; chunks: number }): string {
  return `At each folder’s next import or Re-sync, ${formatNumber(indexed.documents)} ${indexed.documents === 1 ? 'document is' : 'documents are'} cut again and ${formatNumber(indexed.chunks)} chunks’ worth of text re-embedded.`;
}
