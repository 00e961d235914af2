import { createHash } from 'node:crypto';
import { ensureCollection } from '../../electron/core/db/collections';
import { documentIdFor, writeDocumentVectors, writeDocumentVersion } from '../../electron/core/db/documents';
import { activateEmbeddingModel, ensureEmbeddingModel, type EmbeddingModelRow } from '../../electron/core/db/embedding-models';
import type { Db } from '../../electron/core/db/open';

/**
 * Documents with text and vectors we choose, written through the same repository an import uses
 * (writeDocumentVersion: chunks, FTS rows by trigger, sections, vectors, bits), so tests and the
 * dense benchmark exercise the real storage without the stand-in's hashed vectors.
 */

export function syntheticModel(db: Db, name: string, dimension: number, activate = true): EmbeddingModelRow {
  const model = ensureEmbeddingModel(db, { name, digest: createHash('sha256').update(name).digest('hex'), dimension });
  if (activate) activateEmbeddingModel(db, model);
  return model;
}

export interface SyntheticDocument {
  relPath: string;
  /** Each chunk's text; one heading section holds them all. */
  chunks: readonly string[];
  /** One per chunk, for `model`; absent: the document is written without vectors. */
  vectors?: readonly Float32Array[];
}

/** Writes one document into the folder `root` (a collection, created on first use); returns its chunks' rowids. */
export function writeSyntheticDocument(db: Db, root: string, doc: SyntheticDocument, model: EmbeddingModelRow | null): number[] {
  const collection = ensureCollection(db, root);
  const id = documentIdFor(collection.id, doc.relPath);
  let line = 1;
  const chunks = doc.chunks.map((text, ordinal) => {
    const lines = text.split('\n').length;
    const chunk = { ordinal, headingPath: doc.relPath, text, tokenCount: Math.ceil(text.length / 4), startLine: line, endLine: line + lines - 1, pages: null, flags: [] };
    line += lines + 1;
    return chunk;
  });
  writeDocumentVersion(db, {
    meta: { id, collectionId: collection.id, relPath: doc.relPath, sourceUri: `file://${root}/${doc.relPath}`, title: doc.relPath, size: 0, mtimeMs: 0, sha256: null, reader: 'text', readerVersion: 1, chunker: 'synthetic' },
    chunks,
    ...(model && doc.vectors ? { embedding: { model, vectors: doc.vectors } } : {}),
  });
  return db.prepare('SELECT rowid FROM chunks WHERE document_id = ? ORDER BY ordinal').pluck().all(id) as number[];
}

/** Adds a second model's vectors to a written document (as an embedding run does). */
export function addSyntheticVectors(db: Db, root: string, relPath: string, model: EmbeddingModelRow, rowids: readonly number[], vectors: readonly Float32Array[]): void {
  const collection = ensureCollection(db, root);
  if (!writeDocumentVectors(db, documentIdFor(collection.id, relPath), model, rowids, vectors)) throw new Error(`${relPath} changed while its vectors were written`);
}

/** A seeded generator (mulberry32): the same numbers every run. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A seeded generator with the draws tests make of it: a share, a whole number below n, one of a list. */
export function seededPicks(seed: number) {
  const next = seeded(seed);
  return { next, int: (n: number) => Math.floor(next() * n), pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]! };
}
export type SeededPicks = ReturnType<typeof seededPicks>;

/** Standard normal numbers from a uniform generator (Box–Muller). */
export function gaussian(random: () => number): () => number {
  return () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

export function normalise(v: Float32Array): Float32Array {
  let n = 0;
  for (const x of v) n += x * x;
  const s = n > 0 ? 1 / Math.sqrt(n) : 0;
  for (let i = 0; i < v.length; i++) v[i]! *= s;
  return v;
}
