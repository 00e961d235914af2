/**
 * Where retrieval misses come from. For every answerable question whose fact is not in the top 3,
 * each cause below that applies is counted (a miss can have several):
 *
 * - split-from-heading: the fact's chunk is a later piece of a section cut in several chunks, and a
 *   question word that the section's first chunk has is missing from the fact's chunk;
 * - words-in-neighbour: a question word the fact's chunk lacks is in the chunk just before or after;
 * - code-identifier: the question names code (`?`, `Box<T>`, `unwrap_or_else`, `&mut`, `#[derive]`)
 *   whose symbols a word tokenizer drops or splits;
 * - crowded: three or more of the top 5 come from one section of another document, or one
 *   document fills the top 5;
 * - word-form: a question word and a word of the fact's chunk share a stem the Porter stemmer does
 *   not join (bool / Booleans, config / configuration);
 * - question-fragment: contraction pieces or question words ("what's", "don't" become s, t, don)
 *   reached the query;
 * - repeated-text: a chunk in the top 3 has the same text as a chunk of another document;
 * - no-shared-word: the fact's chunk shares no content word with the question (only vectors or
 *   expansion can find it);
 * - fact-not-indexed: no chunk holds the whole fact (split across chunks by the chunker).
 *
 * Separately, for every answerable question whose first passage lacks the fact: where that first
 * passage's hit is, seen from the fact's chunk (another document, another heading of the same
 * document, or the same heading some chunks away). It says which kind of ranking change could
 * move hit@1: telling documents apart, sections apart, or chunks of one section apart.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { containsFact } from '../../electron/core/eval/metrics';
import { indexFileName } from '../../electron/core/eval/index-files';
import type { EvalReport, Question } from '../../shared/eval';
import { queryTerms } from '../../electron/core/retrieve/fts-query';

export const CAUSES = [
  'split-from-heading',
  'words-in-neighbour',
  'code-identifier',
  'crowded',
  'word-form',
  'question-fragment',
  'repeated-text',
  'no-shared-word',
  'fact-not-indexed',
] as const;
export type Cause = (typeof CAUSES)[number];

export const FIRST_PLACES = ['other-document', 'other-heading', 'same-heading', 'no-result', 'fact-not-indexed'] as const;
export type FirstPlace = (typeof FIRST_PLACES)[number];

export interface Diagnosis {
  config: string;
  answerable: number;
  missesAt3: number;
  counts: Record<Cause, number>;
  /** Questions missed at rank 1, by where the first passage's hit is relative to the fact's chunk. */
  firstPlace: Record<FirstPlace, number>;
  /** Per missed question: its causes. */
  misses: Array<{ id: string; question: string; rank: number | null; causes: Cause[] }>;
  summary: string;
  firstSummary: string;
}

// The words a question is made of rather than about.
const FUNCTION_WORDS = new Set(
  ('a an and are as at be but by can could do does did for from had has have how i if in into is it its me my no not of on or our so ' +
    'should that the their them then there these they this to was we were what whats when where which who why will with would you your').split(' '),
);
const FRAGMENTS = new Set(['s', 't', 'd', 'll', 're', 've', 'm', 'don', 'doesn', 'isn', 'aren', 'can', 'won', 'didn', 'wasn', 'couldn', 'shouldn', 'wouldn', 'haven', 'hasn']);

const words = (text: string) => text.normalize('NFKC').toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
const contentWords = (text: string) => [...new Set(words(text).filter((w) => !FUNCTION_WORDS.has(w) && !FRAGMENTS.has(w) && w.length > 1))];
/** A rough stem: enough to tell "the same word" for counting, not for ranking. */
const stem = (w: string) => w.replace(/(ies|es|s|ing|ed|ly)$/, '').slice(0, 6);

interface ChunkRow {
  id: string;
  document_id: string;
  ordinal: number;
  heading_path: string;
  text: string;
  rel_path: string;
}

export function diagnose(report: EvalReport, configIndex: number, questions: Question[], workDir: string): Diagnosis {
  const config = report.configs[configIndex]!;
  const db = new Database(path.join(workDir, indexFileName(report.run.docs, config.embedModel, config.chunker)), { readonly: true });
  const chunkById = db.prepare('SELECT c.id, c.document_id, c.ordinal, c.heading_path, c.text, d.rel_path FROM chunks c JOIN documents d ON d.id = c.document_id WHERE c.id = ?');
  const chunksOf = db.prepare('SELECT c.id, c.document_id, c.ordinal, c.heading_path, c.text, d.rel_path FROM chunks c JOIN documents d ON d.id = c.document_id WHERE d.rel_path = ? ORDER BY c.ordinal');
  const sameText = db.prepare('SELECT count(DISTINCT document_id) FROM chunks WHERE text = ?').pluck();
  const counts = Object.fromEntries(CAUSES.map((c) => [c, 0])) as Record<Cause, number>;
  const firstPlace = Object.fromEntries(FIRST_PLACES.map((c) => [c, 0])) as Record<FirstPlace, number>;
  let missesAt1 = 0;
  const misses: Diagnosis['misses'] = [];
  let answerable = 0;
  const runs = report.perQuestion.filter((p) => p.config === configIndex);
  for (const q of questions) {
    const fact = q.expect.chunkFact;
    if (!q.expect.answerable || !fact || !q.file) continue;
    answerable++;
    const run = runs.find((r) => r.score.questionId === q.id);
    const top = run?.retrieved ?? [];
    const rank = top.findIndex((r) => r.hasFact);
    const docChunks = chunksOf.all(q.file) as ChunkRow[];
    const factChunk = docChunks.find((c) => containsFact(c.text, fact));
    if (rank !== 0) {
      missesAt1++;
      const first = top[0] ? (chunkById.get(top[0].chunkId) as ChunkRow | undefined) : undefined;
      const place: FirstPlace = !factChunk
        ? 'fact-not-indexed'
        : !first
          ? 'no-result'
          : first.document_id !== factChunk.document_id
            ? 'other-document'
            : first.heading_path !== factChunk.heading_path
              ? 'other-heading'
              : 'same-heading';
      firstPlace[place]++;
    }
    if (rank >= 0 && rank < 3) continue;
    const causes = new Set<Cause>();
    const qWords = contentWords(q.question);
    const has = (c: ChunkRow, w: string) => {
      const s = stem(w);
      return contentWords(`${c.heading_path} ${c.text}`).some((x) => stem(x) === s);
    };
    if (!factChunk) causes.add('fact-not-indexed');
    else {
      const missing = qWords.filter((w) => !has(factChunk, w));
      const section = docChunks.filter((c) => c.heading_path === factChunk.heading_path);
      if (section.length > 1 && section[0]!.id !== factChunk.id && missing.some((w) => has(section[0]!, w))) causes.add('split-from-heading');
      const neighbours = docChunks.filter((c) => Math.abs(c.ordinal - factChunk.ordinal) === 1);
      if (missing.some((w) => neighbours.some((n) => has(n, w)))) causes.add('words-in-neighbour');
      if (qWords.every((w) => !has(factChunk, w))) causes.add('no-shared-word');
      const chunkWords = contentWords(`${factChunk.heading_path} ${factChunk.text}`);
      const formMismatch = qWords.some((w) => w.length >= 3 && !has(factChunk, w) && chunkWords.some((x) => x.length >= 3 && x !== w && (x.startsWith(w) || w.startsWith(x))));
      if (formMismatch) causes.add('word-form');
    }
    if (/[`?]|<\w*>|&mut|::|#\[|\w_\w|\w\(\)/.test(q.question.replace(/\?\s*$/, ''))) causes.add('code-identifier');
    // What the query builder actually kept: pieces of contractions and question scaffolding.
    if (queryTerms(q.question).some((w) => FRAGMENTS.has(w) || FUNCTION_WORDS.has(w))) causes.add('question-fragment');
    const top5 = top.slice(0, 5).map((r) => chunkById.get(r.chunkId) as ChunkRow | undefined).filter((c): c is ChunkRow => !!c);
    const groups = new Map<string, number>();
    for (const c of top5) if (c.rel_path !== q.file) groups.set(`${c.document_id}\0${c.heading_path}`, (groups.get(`${c.document_id}\0${c.heading_path}`) ?? 0) + 1);
    const docs = new Set(top5.map((c) => c.document_id));
    if ([...groups.values()].some((n) => n >= 3) || (top5.length === 5 && docs.size === 1 && top5[0]!.rel_path !== q.file)) causes.add('crowded');
    if (top5.slice(0, 3).some((c) => (sameText.get(c.text) as number) > 1)) causes.add('repeated-text');
    for (const c of causes) counts[c]++;
    misses.push({ id: q.id, question: q.question, rank: rank >= 0 ? rank + 1 : null, causes: [...causes] });
  }
  db.close();
  const summary =
    `${misses.length} of ${answerable} not in the top 3 — ` +
    CAUSES.filter((c) => counts[c] > 0)
      .map((c) => `${c} ${counts[c]}`)
      .join(', ');
  const firstSummary =
    `${missesAt1} of ${answerable} without the fact in the first passage, whose hit is in — ` +
    FIRST_PLACES.filter((c) => firstPlace[c] > 0)
      .map((c) => `${c} ${firstPlace[c]}`)
      .join(', ');
  return { config: `${config.mode} ${config.chunker}${config.mode === 'hybrid' ? ` ${config.fusion}` : ''}`, answerable, missesAt3: misses.length, counts, firstPlace, misses, summary, firstSummary };
}

