import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { QuireErrorShape } from '../shared/errors';
import { parseQuestionSet } from '../electron/core/eval/questions';
import { runEval } from '../electron/core/eval/run';
import { OllamaGateway } from '../electron/core/ollama/gateway';
import { startStandin, type Standin } from './support/ollama-standin/server';
import { NotesFolder, tempDbPath } from './support/notes';

/**
 * An evaluation awaits the keyword statistics' rebuild its import makes due (its numbers depend on
 * them). The rebuild failing (a full disk) is the import's warning, not its failure, so the run
 * goes on and scores keyword search on the older statistics: its report must say so. The failure
 * is stood in for here, since a full disk cannot be given to the connection the run opens itself.
 */
const FAILED: QuireErrorShape = { code: 'WRITE_FAILED', message: "Keyword search's statistics could not be rebuilt after this import: the disk is full [SQLITE_FULL]." };
vi.mock('../electron/core/db/keyword-statistics', async (original) => ({
  ...(await original<typeof import('../electron/core/db/keyword-statistics')>()),
  refreshAfterWrites: vi.fn(async () => FAILED),
}));

let ollama: Standin;
let notes: NotesFolder;
let work: ReturnType<typeof tempDbPath>;
beforeAll(async () => {
  ollama = await startStandin();
  notes = new NotesFolder('quire-eval-stats-');
  notes.write('keys.md', '# Keys\n\nThe deploy keys are rotated every 90 days.\n');
  work = tempDbPath('quire-eval-stats-work-');
});
afterAll(async () => {
  await ollama?.close();
  notes?.dispose();
  work?.dispose();
});

describe('an evaluation whose index could not have its keyword statistics rebuilt', () => {
  it('scores on, and its report says which index ranked with the older statistics and why', async () => {
    const report = await runEval({
      docs: notes.root,
      questions: parseQuestionSet(JSON.stringify([{ id: 'keys', question: 'How often are the deploy keys rotated?', expect: { chunkFact: 'every 90 days', answerable: true } }])),
      questionSetName: 'test set',
      grid: { chatModels: [], embedModels: ['embeddinggemma'], chunkers: ['heading:256'], ks: [3], modes: ['lexical'], fusions: ['rrf:60'], repeats: 1 },
      gateway: new OllamaGateway({ host: ollama.url, retries: 0 }),
      version: '9.9.9',
      workDir: path.dirname(work.file),
    });
    expect(report.configs.map((c) => c.errors)).toEqual([0]);
    expect(report.warnings).toEqual([expect.stringMatching(/^The index for embeddinggemma, heading:256 ranks keyword matches with statistics not rebuilt after its import: .*the disk is full \[SQLITE_FULL\]/)]);
  });
});
