import path from 'node:path';
import { chunkDocument, contextualText, type ChunkerConfig } from '../chunkers/index';
import { readerFor } from '../readers/index';
import type { Reader, ReadResult } from '../readers/types';
import { documentTypeOf } from '../../../../shared/document-types';
import { pagesOfLines } from '../pages';
import { detectInjection } from '../../text/injection';
import { logseqPageTitle, type LogseqGraph } from '../logseq-names';
import type { StoredChunk } from '../../db/documents';

export interface ParseRequest {
  /** The file's path in its folder: picks the reader and, failing a title of its own, names the document. */
  relPath: string;
  bytes: Uint8Array;
  chunker: ChunkerConfig;
  /** The file is in a Logseq graph named so (logseq-names.ts): a Markdown or Org page is named as Logseq names it. */
  logseq?: LogseqGraph;
}

export interface Parsed {
  title: string;
  chunks: StoredChunk[];
  /** The legacy encoding the file was read in, guessed because it is not UTF-8 (decode.ts guessEncoding); absent for UTF-8. */
  guessedEncoding?: string;
}

/**
 * Stages 2 and 3 for one file's bytes: read with the reader for its type, cut into chunks, scan
 * each for injected instructions (once, here; the flags travel with the chunk). Pure computation:
 * it runs in the parse worker (parse-pool.ts) or, for a caller without one, in-process.
 */
export async function parseFile(req: ParseRequest): Promise<Parsed> {
  const reader = readerFor(req.relPath);
  if (!reader) throw new Error(`No reader for ${req.relPath}.`);
  const { read, guessedEncoding } = await readGuessing(reader, req.bytes);
  // Logseq names a page by its title:: (or front matter, #+TITLE:) else its file, never by a first heading block.
  const title = read.title !== null && !(read.titleIsHeading && logseqPage(req)) ? read.title : fileNameTitle(req);
  const chunks = chunkDocument({ text: read.text, title, firstLine: read.firstLine }, req.chunker).map((c) => ({
    ...c,
    // A paged document (PDF): each chunk gets the pages its lines fall on.
    ...(read.pages ? { pages: pagesOfLines(read.pages, c.startLine, c.endLine) } : {}),
    flags: detectInjection(contextualText(c)),
  }));
  return { title, chunks, ...(guessedEncoding ? { guessedEncoding } : {}) };
}

/**
 * Reads the bytes; a text file that is not UTF-8 (and declares no encoding) is read again as the
 * legacy encoding its bytes point to, when that is not in doubt. Otherwise the refusal says why.
 */
async function readGuessing(reader: Reader, bytes: Uint8Array): Promise<{ read: ReadResult; guessedEncoding?: string }> {
  try {
    return { read: await reader.read(bytes) };
  } catch (e) {
    // Imported here: it brings chardet, which the importing process (parse-file is in its graph) never needs.
    const { guessEncoding, isNotUtf8Refusal, notUtf8Nor } = await import('../readers/decode');
    if (!isNotUtf8Refusal(e)) throw e;
    const guess = guessEncoding(bytes);
    if (guess.encoding === null) throw notUtf8Nor(e, guess.why);
    return { read: await reader.read(new TextEncoder().encode(guess.text)), guessedEncoding: guess.encoding };
  }
}

/** A document without a title of its own is named by its file, as its app names it: Logseq's pages and journals are read by Logseq's rule. */
function fileNameTitle(req: ParseRequest): string {
  const body = path.posix.basename(req.relPath, path.posix.extname(req.relPath));
  return req.logseq && logseqPage(req) ? logseqPageTitle(body, req.logseq) || body : body;
}

/** A page of a Logseq graph: a file in one of the formats Logseq writes pages in. */
function logseqPage(req: ParseRequest): boolean {
  const type = documentTypeOf(req.relPath);
  return req.logseq !== undefined && (type === 'markdown' || type === 'org');
}
