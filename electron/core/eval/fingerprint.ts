import { createHash } from 'node:crypto';

/**
 * Identifies a corpus by its documents' content hashes, independent of their order: sha256 (hex) of
 * the hashes sorted by UTF-16 code unit and joined by '\n'. The input array is not modified.
 */
export function corpusFingerprint(documentHashes: readonly string[]): string {
  return createHash('sha256').update([...documentHashes].sort().join('\n'), 'utf8').digest('hex');
}
