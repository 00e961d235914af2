import type { SavedQuestion } from '../../../shared/eval';
import type { Db } from './open';

interface Row {
  id: string;
  question: string;
  chunk_fact: string | null;
  answer_regex: string | null;
  answerable: number;
  file: string | null;
  root: string | null;
  created_at: string;
}

function fromRow(r: Row): SavedQuestion {
  const q: SavedQuestion = { id: r.id, question: r.question, expect: { answerable: r.answerable === 1 }, root: r.root, createdAt: r.created_at };
  if (r.chunk_fact !== null) q.expect.chunkFact = r.chunk_fact;
  if (r.answer_regex !== null) q.expect.answerRegex = r.answer_regex;
  if (r.file !== null) q.file = r.file;
  return q;
}

/** Saved questions, oldest first; with `root`, those saved for that folder and those for every folder. */
export function listSavedQuestions(db: Db, root?: string): SavedQuestion[] {
  const rows = (
    root === undefined
      ? db.prepare('SELECT * FROM saved_questions ORDER BY created_at, id').all()
      : db.prepare('SELECT * FROM saved_questions WHERE root IS NULL OR root = ? ORDER BY created_at, id').all(root)
  ) as Row[];
  return rows.map(fromRow);
}

export function insertSavedQuestion(db: Db, q: Omit<SavedQuestion, 'createdAt'>): SavedQuestion {
  const createdAt = new Date().toISOString();
  db.prepare(
    'INSERT INTO saved_questions (id, question, chunk_fact, answer_regex, answerable, file, root, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  ).run(q.id, q.question, q.expect.chunkFact ?? null, q.expect.answerRegex ?? null, q.expect.answerable ? 1 : 0, q.file ?? null, q.root, createdAt);
  return { ...q, createdAt };
}

export function deleteSavedQuestion(db: Db, id: string): boolean {
  return db.prepare('DELETE FROM saved_questions WHERE id = ?').run(id).changes > 0;
}

export function savedQuestionIds(db: Db): Set<string> {
  return new Set(db.prepare('SELECT id FROM saved_questions').pluck().all() as string[]);
}
