import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SET_FILES } from './sets';
import { loadCorpus, verifyQuestionSet } from './verify-questions';

const REPO = path.resolve(import.meta.dirname, '../..');

// Every fact of every question set occurs in the file it names, within one paragraph, and in no
// other file: otherwise a hit could be luck and a miss could be the set's fault. The public corpora
// live beside the repo (../shared/corpora); a clone without them cannot check those sets.
describe.each(Object.entries(SET_FILES))('question set %s', (name, set) => {
  const docs = path.resolve(REPO, set.docs);
  it.skipIf(!fs.existsSync(docs))(`has a checkable fact for every answerable question, and 15% unanswerable (needs ${set.docs})`, () => {
    const result = verifyQuestionSet(fs.readFileSync(path.join(REPO, set.questions), 'utf8'), loadCorpus(docs), set.questions);
    expect(result.problems).toEqual([]);
    expect(result.questions).toBeGreaterThanOrEqual(set.min);
  });
});
