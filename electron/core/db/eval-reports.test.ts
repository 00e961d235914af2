import { afterEach, describe, expect, it } from 'vitest';
import { METRICS_VERSION, type EvalReport } from '../../../shared/eval';
import { tempDbPath } from '../../../test/support/notes';
import { insertEvalReport, listEvalReports } from './eval-reports';
import { openDatabase, type Db } from './open';

const open: Array<{ db: Db; dispose: () => void }> = [];
afterEach(() => {
  for (const o of open.splice(0)) {
    o.db.close();
    o.dispose();
  }
});

function db(): Db {
  const file = tempDbPath('quire-eval-reports-');
  const d = openDatabase(file.file);
  open.push({ db: d, dispose: file.dispose });
  return d;
}

const report = (chatModels: string[], embedModels: string[]): EvalReport => ({
  metricsVersion: METRICS_VERSION,
  corpus: { documents: 1, fingerprint: 'f' },
  questions: { answerable: 1, unanswerable: 0 },
  configs: [],
  perQuestion: [],
  run: {
    quire: '0.1.0', ollama: null, models: {}, at: '2026-03-01T10:00:00Z', ms: 1000,
    answerSettings: { numCtxCap: 8192, numPredict: 512, temperature: 0, seed: 42, maxDistance: 1.05 },
    grid: { chatModels, embedModels, chunkers: ['heading:256'], ks: [6], modes: ['hybrid'], fusions: ['rrf:60'], repeats: 1 },
    docs: '/notes',
    questionSet: { name: 'mine.json', sha256: 'aa', questions: [] },
  },
  warnings: [],
});

describe('listEvalReports', () => {
  it('says which models each report compared, so two runs of one question set are told apart unopened', () => {
    const d = db();
    insertEvalReport(d, report([], ['embeddinggemma:latest', 'nomic-embed-text']));
    insertEvalReport(d, report(['llama3.2'], ['embeddinggemma']));
    expect(listEvalReports(d).map((r) => r.models)).toEqual([
      { chat: ['llama3.2'], embed: ['embeddinggemma'] },
      { chat: [], embed: ['embeddinggemma', 'nomic-embed-text'] },
    ]);
  });

  it('lists a stored report whose grid cannot be read without its models, not not at all', () => {
    const d = db();
    d.prepare("INSERT INTO eval_reports (created_at, docs, question_set, configs, questions, ms, report) VALUES ('2026-03-01T10:00:00Z', '/n', 'q', 1, 1, 1, '{}')").run();
    const [only] = listEvalReports(d);
    expect(only).toMatchObject({ questionSet: 'q' });
    expect(only!.models).toBeUndefined();
  });
});
