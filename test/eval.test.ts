import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseQuestionSet } from '../electron/core/eval/questions';
import { runEval } from '../electron/core/eval/run';
import { OllamaGateway } from '../electron/core/ollama/gateway';
import { startStandin, type Standin } from './support/ollama-standin/server';
import { NotesFolder, tempDbPath } from './support/notes';

/** The bench end to end over the same search and ask paths as the app, against the stand-in. */
let ollama: Standin;
let notes: NotesFolder;
let work: ReturnType<typeof tempDbPath>;

const QUESTIONS = parseQuestionSet(
  JSON.stringify([
    { id: 'keys', question: 'How often are the deploy keys rotated?', expect: { chunkFact: 'every 90 days', answerRegex: '90 days', answerable: true } },
    { id: 'bread', question: 'How long does the sourdough loaf bake?', expect: { chunkFact: 'twenty minutes', answerRegex: 'twenty minutes', answerable: true } },
    { id: 'wifi', question: 'What is the office wifi password?', expect: { answerable: false } },
  ]),
);

beforeAll(async () => {
  ollama = await startStandin();
  notes = new NotesFolder('quire-eval-');
  notes.write('keys.md', '# Keys\n\nThe deploy keys are rotated every 90 days.\n');
  notes.write('bread.md', '# Bread\n\nThe sourdough loaf bakes for twenty minutes.\n');
  notes.write('garden.md', '# Garden\n\nTomatoes need stakes and compost.\n');
  work = tempDbPath('quire-eval-work-');
});
afterAll(async () => {
  await ollama?.close();
  notes?.dispose();
  work?.dispose();
});

const gateway = () => new OllamaGateway({ host: ollama.url, retries: 0 });

describe('runEval', () => {
  it('scores every grid point, with answers from the chat model', async () => {
    const report = await runEval({
      docs: notes.root,
      questions: QUESTIONS,
      grid: { chatModels: ['llama3.2'], embedModels: ['embeddinggemma'], chunkers: [{ kind: 'heading', maxTokens: 256 }], ks: [3], modes: ['lexical', 'hybrid'], repeats: 2 },
      gateway: gateway(),
      workDir: path.dirname(work.file),
    });
    expect(report.corpus.documents).toBe(3);
    expect(report.corpus.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(report.questions).toEqual({ answerable: 2, unanswerable: 1 });
    expect(report.configs.map((c) => c.mode)).toEqual(['lexical', 'hybrid']);
    for (const c of report.configs) {
      expect(c).toMatchObject({ chatModel: 'llama3.2', embedModel: 'embeddinggemma', chunker: 'heading:256', k: 3 });
      expect(c.metrics.hit1).toBe(1);
      expect(c.metrics.answerHasFact).toBe(1);
      expect(c.metrics.citationValid).toBe(1);
      expect(c.metrics.refusalAccuracy).toBe(1);
      expect(c.metrics.falseRefusals).toBe(0);
      expect(c.metrics.changedAcrossRepeats).toBe(0);
    }
    expect(report.perQuestion).toHaveLength(2 * 3 * 2);
  });

  it('without a chat model: retrieval metrics only, answer metrics not run (null)', async () => {
    const report = await runEval({
      docs: notes.root,
      questions: QUESTIONS,
      grid: { chatModels: [], embedModels: ['embeddinggemma'], chunkers: [{ kind: 'heading', maxTokens: 256 }], ks: [1], modes: ['hybrid'], repeats: 1 },
      gateway: gateway(),
      workDir: path.dirname(work.file),
    });
    const m = report.configs[0]!.metrics;
    expect(report.configs[0]!.chatModel).toBeNull();
    expect(m.hit1).toBe(1);
    expect(m.mrr).toBe(1);
    expect(m.answerHasFact).toBeNull();
    expect(m.refusalAccuracy).toBeNull();
    expect(m.truncations).toBeNull();
  });
});
