/**
 * Checks a question set against its corpus, so a score can be trusted: every answerable question's
 * chunk_fact occurs in the file it names, inside one paragraph (a fact split by a blank line could
 * never sit in one passage), and in no other file of the corpus (a fact found elsewhere would let a
 * wrong passage count as a hit, or the right one be unfindable by design). Unanswerable questions
 * carry no fact and name no file. Ids are unique; at least 15% of the set is unanswerable.
 *
 *   npx tsx test/bench/verify-questions.ts test/bench/questions/rust-book.json ../shared/corpora/rust-book/src
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseQuestionSet } from '../../electron/core/eval/questions';
import { normaliseText } from '../../electron/core/text/normalise';

export interface CorpusText {
  /** Relative path (forward slashes) → normalised paragraphs. */
  paragraphs: Map<string, string[]>;
  /** Relative path → the whole file, normalised. */
  whole: Map<string, string>;
}

const READ = /\.(md|markdown|txt)$/i;

export function loadCorpus(root: string): CorpusText {
  const paragraphs = new Map<string, string[]>();
  const whole = new Map<string, string>();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() && READ.test(entry.name)) {
        const text = fs.readFileSync(full, 'utf8');
        const rel = path.relative(root, full).split(path.sep).join('/');
        paragraphs.set(rel, text.split(/\n[ \t>]*\n/).map(normaliseText));
        whole.set(rel, normaliseText(text));
      }
    }
  };
  walk(root);
  return { paragraphs, whole };
}

export interface VerifyResult {
  questions: number;
  answerable: number;
  unanswerable: number;
  problems: string[];
}

export function verifyQuestionSet(text: string, corpus: CorpusText, source = 'question set'): VerifyResult {
  const raw = JSON.parse(text) as Array<Record<string, unknown>>;
  const questions = parseQuestionSet(text, source);
  const problems: string[] = [];
  const ids = new Set<string>();
  questions.forEach((q, i) => {
    const file = typeof raw[i]?.file === 'string' ? (raw[i]!.file as string) : undefined;
    const at = `${q.id}`;
    if (ids.has(q.id)) problems.push(`${at}: id used twice`);
    ids.add(q.id);
    const fact = q.expect.chunkFact;
    if (!q.expect.answerable) {
      if (fact !== undefined || file !== undefined) problems.push(`${at}: an unanswerable question names no fact and no file`);
      return;
    }
    if (fact === undefined || file === undefined) {
      problems.push(`${at}: an answerable question needs chunk_fact and file`);
      return;
    }
    const f = normaliseText(fact);
    if (f.length < 4) problems.push(`${at}: chunk_fact "${fact}" is too short to identify a passage`);
    const paragraphs = corpus.paragraphs.get(file);
    if (!paragraphs) {
      problems.push(`${at}: file ${file} is not in the corpus`);
      return;
    }
    if (!corpus.whole.get(file)!.includes(f)) problems.push(`${at}: chunk_fact "${fact}" does not occur in ${file}`);
    else if (!paragraphs.some((p) => p.includes(f))) problems.push(`${at}: chunk_fact "${fact}" spans a paragraph break in ${file}`);
    const elsewhere = [...corpus.whole].filter(([rel, t]) => rel !== file && t.includes(f)).map(([rel]) => rel);
    if (elsewhere.length > 0) {
      problems.push(`${at}: chunk_fact "${fact}" also occurs in ${elsewhere.slice(0, 3).join(', ')}${elsewhere.length > 3 ? ` and ${elsewhere.length - 3} more` : ''}`);
    }
  });
  const unanswerable = questions.filter((q) => !q.expect.answerable).length;
  if (questions.length > 0 && unanswerable / questions.length < 0.15) {
    problems.push(`only ${unanswerable} of ${questions.length} questions are unanswerable; at least 15% should be`);
  }
  return { questions: questions.length, answerable: questions.length - unanswerable, unanswerable, problems };
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const [setFile, root] = process.argv.slice(2);
  if (!setFile || !root) {
    console.error('usage: npx tsx test/bench/verify-questions.ts <questions.json> <corpus folder>');
    process.exit(2);
  }
  const result = verifyQuestionSet(fs.readFileSync(setFile, 'utf8'), loadCorpus(root), setFile);
  for (const p of result.problems) console.log(`- ${p}`);
  console.log(`${result.questions} questions (${result.answerable} answerable, ${result.unanswerable} not): ${result.problems.length} problems`);
  process.exit(result.problems.length === 0 ? 0 : 1);
}
