/**
 * Documents of any size for measuring at scale, made from real text: sentences of the corpora in
 * ../shared/corpora recombined into new documents (mostly runs from one source, so a chunk stays
 * about one topic, with a stranger sentence mixed in as real notes have). Without the corpora,
 * text from a seeded Zipf vocabulary, and `source` says so. Deterministic for a seed.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { StoredChunk } from '../../electron/core/db/documents';
import { seeded } from '../support/synthetic-index';

const REPO = path.resolve(import.meta.dirname, '../..');
export const CORPUS_DIRS = [path.resolve(REPO, '../shared/corpora/rust-book/src'), path.resolve(REPO, '../shared/corpora/tldr/pages')];

export interface ScaleDocument {
  relPath: string;
  title: string;
  chunks: StoredChunk[];
}

export interface ScaleCorpus {
  source: 'shared' | 'generated';
  /** `chunks` chunks in documents of 1 to 8 chunks. */
  documents(chunks: number): Generator<ScaleDocument>;
  /** Queries for generated text (the question sets ask about the real corpora): runs of 4 to 10 of its words. */
  queries(n: number): string[];
}

interface Source {
  title: string;
  headings: string[];
  sentences: string[];
}

function walkMarkdown(dir: string, out: string[]): void {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walkMarkdown(p, out);
    else if (e.name.endsWith('.md')) out.push(p);
  }
}

/** A file's title, headings and sentences (a line of a list or code counts as one). */
function sourceOf(text: string, fallbackTitle: string): Source | null {
  const headings: string[] = [];
  const sentences: string[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('```')) continue;
    const h = /^#{1,6}\s+(.*)$/.exec(line);
    if (h) {
      headings.push(h[1]!);
      continue;
    }
    for (const s of line.split(/(?<=[.!?])\s+(?=[A-Z`])/)) if (s.length >= 12) sentences.push(s);
  }
  return sentences.length >= 3 ? { title: headings[0] ?? fallbackTitle, headings: headings.slice(1), sentences } : null;
}

function sharedSources(): Source[] | null {
  if (!CORPUS_DIRS.every((d) => fs.existsSync(d))) return null;
  const files: string[] = [];
  for (const d of CORPUS_DIRS) walkMarkdown(d, files);
  files.sort();
  const sources = files.map((f) => sourceOf(fs.readFileSync(f, 'utf8'), path.basename(f, '.md'))).filter((s): s is Source => s !== null);
  return sources.length > 0 ? sources : null;
}

/** Without the corpora: 200 documents of Zipf-distributed made-up words, a few frequent and many rare, as language is. */
function generatedSources(random: () => number): Source[] {
  const syllables = ['ka', 'lo', 'mi', 'ren', 'tu', 'sha', 'vel', 'dor', 'pi', 'nex', 'ar', 'qui', 'zo', 'bel', 'fin', 'gra'];
  const vocab = Array.from({ length: 20_000 }, (_, i) => {
    let w = '';
    for (let n = i + 1; n > 0; n = Math.floor(n / syllables.length)) w += syllables[n % syllables.length];
    return w;
  });
  // Zipf with exponent 1: rank r has weight 1/r; sampled by inverting the cumulative sum.
  const cumulative: number[] = [];
  vocab.reduce((sum, _, r) => (cumulative.push(sum + 1 / (r + 1)), sum + 1 / (r + 1)), 0);
  const total = cumulative.at(-1)!;
  const word = () => {
    const x = random() * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return vocab[lo]!;
  };
  const sentence = () => Array.from({ length: 6 + Math.floor(random() * 14) }, word).join(' ') + '.';
  return Array.from({ length: 200 }, () => ({ title: `${word()} ${word()}`, headings: Array.from({ length: 6 }, () => `${word()} ${word()}`), sentences: Array.from({ length: 60 }, sentence) }));
}

export function scaleCorpus(seed = 17): ScaleCorpus {
  const random = seeded(seed);
  const shared = sharedSources();
  const sources = shared ?? generatedSources(random);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  return {
    source: shared ? 'shared' : 'generated',
    queries(n: number) {
      const pickQuery = seeded(seed + 1);
      return Array.from({ length: n }, () => {
        const src = sources[Math.floor(pickQuery() * sources.length)]!;
        const words = src.sentences[Math.floor(pickQuery() * src.sentences.length)]!.replace(/[.]/g, '').split(' ');
        const from = Math.floor(pickQuery() * Math.max(1, words.length - 4));
        return words.slice(from, from + 4 + Math.floor(pickQuery() * 7)).join(' ');
      });
    },
    *documents(total: number) {
      let made = 0;
      for (let d = 0; made < total; d++) {
        const src = pick(sources);
        const n = Math.min(total - made, 1 + Math.floor(random() * 8));
        const title = `${src.title} ${d}`;
        const chunks: StoredChunk[] = [];
        let line = 1;
        let heading = title;
        for (let o = 0; o < n; o++) {
          if (o === 0 || (src.headings.length > 0 && random() < 0.5)) heading = o === 0 ? title : `${title} > ${pick(src.headings)}`;
          const start = Math.floor(random() * src.sentences.length);
          const lines: string[] = [];
          for (let k = 0, want = 4 + Math.floor(random() * 6); k < want; k++) lines.push(random() < 0.85 ? src.sentences[(start + k) % src.sentences.length]! : pick(pick(sources).sentences));
          const text = lines.join('\n');
          chunks.push({ ordinal: o, headingPath: heading, text, tokenCount: Math.ceil(text.length / 4), startLine: line, endLine: line + lines.length - 1, flags: [] });
          line += lines.length + 1;
        }
        made += n;
        yield { relPath: `scale/${d % 100}/${d}.md`, title, chunks };
      }
    },
  };
}
