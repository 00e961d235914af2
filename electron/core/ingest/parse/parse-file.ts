import path from 'node:path';
import { chunkDocument, contextualText, type ChunkerConfig } from '../chunkers/index';
import { readerFor } from '../readers/index';
import { pagesOfLines } from '../pages';
import { detectInjection } from '../../text/injection';
import type { StoredChunk } from '../../db/documents';

export interface ParseRequest {
  /** The file's path in its folder: picks the reader and, failing a title of its own, names the document. */
  relPath: string;
  bytes: Uint8Array;
  chunker: ChunkerConfig;
}

export interface Parsed {
  title: string;
  chunks: StoredChunk[];
}

/**
 * Stages 2 and 3 for one file's bytes: read with the reader for its type, cut into chunks, scan
 * each for injected instructions (once, here; the flags travel with the chunk). Pure computation:
 * it runs in the parse worker (parse-pool.ts) or, for a caller without one, in-process.
 */
export async function parseFile(req: ParseRequest): Promise<Parsed> {
  const reader = readerFor(req.relPath);
  if (!reader) throw new Error(`No reader for ${req.relPath}.`);
  const read = await reader.read(req.bytes);
  const title = read.title ?? path.posix.basename(req.relPath, path.posix.extname(req.relPath));
  const chunks = chunkDocument({ text: read.text, title, firstLine: read.firstLine }, req.chunker).map((c) => ({
    ...c,
    // A paged document (PDF): each chunk gets the pages its lines fall on.
    ...(read.pages ? { pages: pagesOfLines(read.pages, c.startLine, c.endLine) } : {}),
    flags: detectInjection(contextualText(c)),
  }));
  return { title, chunks };
}
