/**
 * What leaving out repeated passages costs at the largest k a search takes (1000): a thousand
 * one-chunk passages of a quarter to all of --words words (a passage is one to four chunks) from as many documents, none a copy of another, so every
 * passage is looked for in every kept one (the worst case). Run alone:
 * npx tsx test/bench/perf-repeats.ts [--k 1000] [--words 600]
 */
import { parseArgs } from 'node:util';
import { ensureCollection } from '../../electron/core/db/collections';
import { documentIdFor, writeDocumentVersion } from '../../electron/core/db/documents';
import { openDatabase } from '../../electron/core/db/open';
import { withoutRepeats } from '../../electron/core/retrieve/repeats';
import { seeded } from '../support/synthetic-index';

const { values } = parseArgs({ options: { k: { type: 'string', default: '1000' }, words: { type: 'string', default: '600' } } });
const K = Number(values.k);
const WORDS = Number(values.words);
// A Zipf-skewed vocabulary of 20,000 words, as in prose: a few in every passage, most in a few.
const random = seeded(7);
const word = () => `w${Math.floor(1 / (random() + 0.00005)) - 1}`;

const db = openDatabase(':memory:');
try {
  const collectionId = ensureCollection(db, '/bench').id;
  for (let d = 0; d < K; d++) {
    const relPath = `d${d}.md`;
    const id = documentIdFor(collectionId, relPath);
    const text = Array.from({ length: Math.round(WORDS * (0.25 + 0.75 * random())) }, word).join(' ');
    writeDocumentVersion(db, {
      meta: { id, collectionId, relPath, sourceUri: `file:///${relPath}`, title: relPath, size: 1, mtimeMs: 0, sha256: id, reader: 'markdown', readerVersion: 1, chunker: 'bench' },
      chunks: [{ ordinal: 0, headingPath: relPath, text, tokenCount: WORDS, startLine: 1, endLine: 1, flags: [] }],
    });
  }
  const rowids = db.prepare('SELECT rowid FROM chunks ORDER BY rowid').pluck().all() as number[];
  const passages = rowids.map((rowid) => ({ rowid, rowids: [rowid] }));
  const times: number[] = [];
  let kept = 0;
  for (let run = 0; run < 5; run++) {
    const t = performance.now();
    kept = withoutRepeats(db, passages, K).length;
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  console.log(`withoutRepeats: ${K} passages of up to ${WORDS} words, ${kept} kept: median ${times[2]!.toFixed(0)} ms, best ${times[0]!.toFixed(0)} ms`);
} finally {
  db.close();
}
