import fs from 'node:fs';
import path from 'node:path';
import type { Question, QuestionSetRef, QuestionSetSummary } from '../../../shared/eval';
import { QuireError, toErrorShape } from '../../../shared/errors';
import type { Db } from '../db/open';
import { listSavedQuestions } from '../db/saved-questions';
import { parseQuestionSet } from './questions';

/**
 * A folder's own question set. A dotfile, so importing the folder passes over it quietly (it is
 * Quire's, not a note), and it travels with the notes it asks about.
 */
export const FOLDER_QUESTIONS_FILE = '.quire-questions.json';

export const SAVED_SET_NAME = 'Saved from answers';

export interface LoadedQuestionSet {
  name: string;
  questions: Question[];
}

/** The questions a reference names, for the folder at `root`; INVALID_QUESTION_SET when unusable. */
export function loadQuestionSet(db: Db, ref: QuestionSetRef, root: string): LoadedQuestionSet {
  switch (ref.kind) {
    case 'saved': {
      const questions = listSavedQuestions(db, root).map(({ root: _r, createdAt: _c, ...q }) => q);
      if (questions.length === 0) throw new QuireError('INVALID_QUESTION_SET', 'No questions have been saved from answers in this folder yet. Use "Save as test" under an answer.');
      return { name: SAVED_SET_NAME, questions };
    }
    case 'folder': {
      const file = path.join(root, FOLDER_QUESTIONS_FILE);
      let text: string;
      try {
        text = fs.readFileSync(file, 'utf8');
      } catch {
        throw new QuireError('INVALID_QUESTION_SET', `This folder has no ${FOLDER_QUESTIONS_FILE} file.`);
      }
      return { name: FOLDER_QUESTIONS_FILE, questions: parseQuestionSet(text, FOLDER_QUESTIONS_FILE) };
    }
    case 'file':
      return { name: ref.name, questions: parseQuestionSet(ref.text, ref.name) };
  }
}

export function summarise(ref: QuestionSetRef, name: string, load: () => Question[]): QuestionSetSummary {
  try {
    const questions = load();
    const answerable = questions.filter((q) => q.expect.answerable).length;
    return { ref, name, answerable, unanswerable: questions.length - answerable, error: null };
  } catch (e) {
    return { ref, name, answerable: 0, unanswerable: 0, error: toErrorShape(e).message };
  }
}

/** The sets on offer for a folder: its own file when it has one, and the saved questions. */
export function questionSetsFor(db: Db, root: string): QuestionSetSummary[] {
  const sets: QuestionSetSummary[] = [];
  if (fs.existsSync(path.join(root, FOLDER_QUESTIONS_FILE))) {
    sets.push(summarise({ kind: 'folder' }, `Questions in this folder (${FOLDER_QUESTIONS_FILE})`, () => loadQuestionSet(db, { kind: 'folder' }, root).questions));
  }
  const saved = listSavedQuestions(db, root).map(({ root: _r, createdAt: _c, ...q }) => q);
  const answerable = saved.filter((q) => q.expect.answerable).length;
  sets.push({
    ref: { kind: 'saved' },
    name: SAVED_SET_NAME,
    answerable,
    unanswerable: saved.length - answerable,
    error: saved.length === 0 ? 'Nothing saved yet: use "Save as test" under an answer.' : null,
  });
  return sets;
}
