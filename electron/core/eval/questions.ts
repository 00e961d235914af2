import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { Question } from '../../../shared/eval';
import { QuireError } from '../../../shared/errors';
import { collapseWhitespace, escapeRegex } from '../text/normalise';
import { scanJson } from './json-lines';

export type { Question } from '../../../shared/eval';

/** How many problems the thrown Error lists before summarising the rest. */
export const MAX_LISTED_PROBLEMS = 20;

const NON_EMPTY = 'must be a non-empty string';
const BOOLEAN = 'must be true or false';

const nonEmpty = () => z.string({ error: NON_EMPTY }).refine((s) => s.trim().length > 0, { error: NON_EMPTY });
/** Optional text: absent or null means "not given"; given means non-empty. */
const optionalText = () => nonEmpty().nullish();

const nestedSchema = z.object({
  id: nonEmpty(),
  question: nonEmpty(),
  file: optionalText(),
  expect: z.object(
    {
      chunkFact: optionalText(),
      answerRegex: optionalText(),
      answerable: z.boolean({ error: BOOLEAN }),
    },
    { error: 'must be an object' },
  ),
});

const flatSchema = z.object({
  id: nonEmpty(),
  question: nonEmpty(),
  file: optionalText(),
  chunk_fact: optionalText(),
  answer_fact: optionalText(),
  answerable: z.boolean({ error: BOOLEAN }),
});

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const path = issue.path.map(String).join('.');
  return path ? `"${path}" ${issue.message}` : issue.message;
}

/**
 * Parses a question-set file's text. Accepts a top-level array or `{ "questions": [...] }`, and per
 * entry either the nested form (`expect: { chunkFact?, answerRegex?, answerable }`) or the flat form
 * (`chunk_fact`, `answer_fact`, `answerable`, `file`); `answer_fact` becomes a regex matching that
 * text literally. Entries are numbered from 1 in messages. Every problem found is collected and one
 * Error lists the first {@link MAX_LISTED_PROBLEMS}.
 */
export function parseQuestionSet(text: string, source = 'question set'): Question[] {
  const fail = (problems: string[]): never => {
    const listed = problems.slice(0, MAX_LISTED_PROBLEMS).map((p) => `  - ${p}`);
    if (problems.length > MAX_LISTED_PROBLEMS) listed.push(`  … and ${problems.length - MAX_LISTED_PROBLEMS} more`);
    const noun = problems.length === 1 ? 'problem' : 'problems';
    throw new QuireError('INVALID_QUESTION_SET', `${source}: ${problems.length} ${noun}:\n${listed.join('\n')}`);
  };

  // A byte order mark (some Windows editors write one) is not JSON, but says nothing wrong of the questions.
  const json = text.replace(/^\uFEFF/, '');
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch (e) {
    // Named by line and column, as a person reads the file; JSON.parse gives an offset, or nothing.
    const scan = scanJson(json);
    return fail([scan.ok ? `not valid JSON (${(e as Error).message})` : `not valid JSON at line ${scan.error.line}, column ${scan.error.column}: expected ${scan.error.expected}`]);
  }
  // Each entry's line, when the file has lines to tell apart (one written on a single line has not).
  const scanned = json.trim().includes('\n') ? scanJson(json) : null;
  const entryLines = scanned?.ok ? scanned.entryLines : [];

  let entries: unknown[];
  if (Array.isArray(data)) entries = data;
  else if (isRecord(data) && Array.isArray(data.questions)) entries = data.questions;
  else return fail(['top level must be an array of questions or an object with a "questions" array']);
  if (entries.length === 0) return fail(['contains no questions']);

  const problems: string[] = [];
  const questions: Question[] = [];
  const firstEntryById = new Map<string, number>();

  entries.forEach((raw, index) => {
    const n = index + 1;
    const line = entryLines[index] === undefined ? '' : `line ${entryLines[index]}`;
    if (!isRecord(raw)) {
      problems.push(`entry ${n}${line ? ` (${line})` : ''}: must be an object`);
      return;
    }
    const named = typeof raw.id === 'string' && raw.id.trim() !== '' ? `id "${raw.id}"` : '';
    const where = [named, line].filter(Boolean).join(', ');
    const label = where ? `entry ${n} (${where})` : `entry ${n}`;
    const here = (msg: string) => problems.push(`${label}: ${msg}`);

    const nested = 'expect' in raw;
    const names = nested
      ? { fact: '"expect.chunkFact"', regex: '"expect.answerRegex"' }
      : { fact: '"chunk_fact"', regex: '"answer_fact"' };

    let q: Question;
    if (nested) {
      const r = nestedSchema.safeParse(raw);
      if (!r.success) {
        r.error.issues.forEach((i) => here(describeIssue(i)));
        return;
      }
      const e = r.data.expect;
      q = { id: r.data.id, question: r.data.question, expect: { answerable: e.answerable } };
      if (e.chunkFact != null) q.expect.chunkFact = e.chunkFact;
      if (e.answerRegex != null) q.expect.answerRegex = e.answerRegex;
      if (r.data.file != null) q.file = r.data.file;
    } else {
      const r = flatSchema.safeParse(raw);
      if (!r.success) {
        r.error.issues.forEach((i) => here(describeIssue(i)));
        return;
      }
      q = { id: r.data.id, question: r.data.question, expect: { answerable: r.data.answerable } };
      if (r.data.chunk_fact != null) q.expect.chunkFact = r.data.chunk_fact;
      if (r.data.answer_fact != null) q.expect.answerRegex = escapeRegex(collapseWhitespace(r.data.answer_fact)); // answers are whitespace-collapsed too
      if (r.data.file != null) q.file = r.data.file;
    }

    let ok = true;
    const first = firstEntryById.get(q.id);
    if (first !== undefined) {
      here(`duplicate id (first used by entry ${first})`);
      ok = false;
    } else {
      firstEntryById.set(q.id, n);
    }
    if (q.expect.answerRegex !== undefined) {
      try {
        new RegExp(q.expect.answerRegex, 'i');
      } catch (e) {
        here(`${names.regex} is not a valid regular expression (${(e as Error).message})`);
        ok = false;
      }
    }
    if (q.expect.answerable && q.expect.chunkFact === undefined && q.expect.answerRegex === undefined) {
      here(`answerable question needs ${names.fact} or ${names.regex}`);
      ok = false;
    }
    if (!q.expect.answerable && q.expect.chunkFact !== undefined) {
      here(`unanswerable question must not have ${names.fact}`);
      ok = false;
    }
    if (ok) questions.push(q);
  });

  if (problems.length > 0) fail(problems);
  return questions;
}

/** Identifies a question set by its content, so a report says exactly which questions it answered. */
export function questionSetDigest(questions: readonly Question[]): string {
  const canonical = questions.map((q) => [q.id, q.question, q.expect.chunkFact ?? null, q.expect.answerRegex ?? null, q.expect.answerable]);
  return createHash('sha256').update(JSON.stringify(canonical)).digest('hex');
}
