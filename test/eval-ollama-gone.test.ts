import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { EvalGrid } from '../shared/eval';
import { EvalReportSchema } from '../shared/eval';
import { parseQuestionSet } from '../electron/core/eval/questions';
import { runEval } from '../electron/core/eval/run';
import { OllamaGateway } from '../electron/core/ollama/gateway';
import { extractiveReply } from './support/ollama-standin/chat';
import { startStandin, type Standin } from './support/ollama-standin/server';
import { runCli } from './support/cli-run';
import { NotesFolder, tempDbPath } from './support/notes';

/**
 * An evaluation whose Ollama goes away mid-run stops, rather than fail every question left one by
 * one while the person waits; it keeps what was measured and says what was not.
 */
let ollama: Standin;
let notes: NotesFolder;
let work: ReturnType<typeof tempDbPath>;
/** The stand-in stops itself while giving this answer (counted from 1), as an Ollama that crashes mid-answer. */
let stopAtAnswer: number | null = null;
let answers = 0;

const QUESTIONS = [
  { id: 'keys', question: 'How often are the deploy keys rotated?', expect: { chunkFact: 'every 90 days', answerable: true } },
  { id: 'bread', question: 'How long does the sourdough loaf bake?', expect: { chunkFact: 'twenty minutes', answerable: true } },
  { id: 'wifi', question: 'What is the office wifi password?', expect: { answerable: false } },
];

beforeAll(async () => {
  ollama = await startStandin({
    responder: (ctx) => {
      answers += 1;
      if (answers === stopAtAnswer) void ollama.stop();
      return extractiveReply(ctx.kept);
    },
  });
  notes = new NotesFolder('quire-eval-gone-');
  notes.write('keys.md', '# Keys\n\nThe deploy keys are rotated every 90 days.\n');
  notes.write('bread.md', '# Bread\n\nThe sourdough loaf bakes for twenty minutes.\n');
  work = tempDbPath('quire-eval-gone-work-');
});
afterEach(async () => {
  stopAtAnswer = null;
  ollama.faults.hang = false;
  await ollama.start();
  ollama.calls.reset();
});
afterAll(async () => {
  await ollama?.close();
  notes?.dispose();
  work?.dispose();
});

const questions = parseQuestionSet(JSON.stringify(QUESTIONS));
// Three configurations of three questions: k = 3, 5 and 6.
const GRID: EvalGrid = { chatModels: ['llama3.2'], embedModels: ['embeddinggemma'], chunkers: ['heading:256'], ks: [3, 5, 6], modes: ['lexical'], fusions: ['rrf:60'], repeats: 1 };
const evalOver = (grid: EvalGrid, onProgress?: (done: number) => void, gateway = new OllamaGateway({ host: ollama.url, retries: 0 })) =>
  runEval({
    docs: notes.root, questions, questionSetName: 'test set', grid, gateway, version: '9.9.9', workDir: path.dirname(work.file),
    ...(onProgress ? { onProgress } : {}),
  });

describe('runEval when Ollama goes away', () => {
  it('stops at once, keeps what was measured, and says how many question runs were not done', async () => {
    // Ollama stops once the second configuration's first question is done: its second finds no vectors for the question.
    const report = await evalOver({ ...GRID, chatModels: [], modes: ['hybrid'] }, (done) => {
      if (done === 4) void ollama.stop();
    });
    expect(report.stopped?.reason).toBe('ollama-unreachable');
    // The first configuration whole; the second with its first question, and the one that found Ollama gone as its error.
    expect(report.configs.map((c) => [c.k, c.errors])).toEqual([[3, 0], [5, 1]]);
    expect(report.perQuestion).toHaveLength(5);
    expect(report.perQuestion[4]!.error?.code).toBe('OLLAMA_UNREACHABLE');
    expect(report.stopped?.notDone).toBe(4);
    const sentence = `The evaluation stopped because Ollama could not be reached at ${ollama.url}: 4 of 9 question runs were not done (“retrieval only · embeddinggemma · heading:256 · k=5 · hybrid · rrf:60” ran 2 of its 3).`;
    expect(report.stopped?.message).toBe(sentence);
    expect(report.warnings).toContain(sentence);
    // What ran is still described: the Ollama it talked to, and the digest its index's vectors came from.
    expect(report.run.ollama).toMatch(/^\d+\.\d+/);
    expect(report.run.models['embeddinggemma']).toMatch(/^[0-9a-f]{64}$/);
    expect(EvalReportSchema.safeParse(report).success).toBe(true);
  });

  it('measured nothing when Ollama was gone from the start: no report, and the error says so', async () => {
    await ollama.stop();
    await expect(evalOver(GRID)).rejects.toMatchObject({ code: 'OLLAMA_UNREACHABLE', message: expect.stringMatching(/^The evaluation stopped because Ollama could not be reached at .* before any configuration was measured, so no report was written\./) });
  });

  it('keyword search alone with no chat model needs no Ollama: measured in full while it is gone', async () => {
    await ollama.stop();
    const report = await evalOver({ ...GRID, chatModels: [], ks: [3] });
    expect(report.stopped).toBeUndefined();
    expect(report.configs.map((c) => [c.mode, c.errors, c.metrics.hit1])).toEqual([['lexical', 0, 1]]);
  });
});

describe('runEval when a shared Ollama stops answering', () => {
  // A server that hangs is found by timeouts; short ones here (every request, and the quick check, give up after 300 ms).
  const impatient = () => new OllamaGateway({ host: ollama.url, retries: 0, timeoutMs: 300 });
  const RETRIEVAL = { ...GRID, chatModels: [], modes: ['hybrid'] } satisfies EvalGrid;

  it('stops once a question times out and so does the quick check, keeps what was measured, and says it timed out, with the host', async () => {
    // The server hangs once the second configuration's first question is done: its second waits for the question's vector in vain.
    const report = await evalOver(RETRIEVAL, (done) => {
      if (done === 4) ollama.faults.hang = true;
    }, impatient());
    expect(report.stopped?.reason).toBe('ollama-timeout');
    expect(report.configs.map((c) => [c.k, c.errors])).toEqual([[3, 0], [5, 1]]);
    expect(report.perQuestion).toHaveLength(5);
    expect(report.perQuestion[4]!.error?.code).toBe('OLLAMA_TIMEOUT');
    const sentence = `The evaluation stopped because Ollama at ${ollama.url} stopped answering (a question timed out, and so did a quick check that Ollama still answers): 4 of 9 question runs were not done (“retrieval only · embeddinggemma · heading:256 · k=5 · hybrid · rrf:60” ran 2 of its 3).`;
    expect(report.stopped?.message).toBe(sentence);
    expect(report.warnings).toContain(sentence);
    expect(EvalReportSchema.safeParse(report).success).toBe(true);
  });

  it('goes on when one question times out while Ollama still answers the check', async () => {
    // One question's vector is stuck (a wedged runner); the server answers its version, and the next question's vector comes.
    const report = await evalOver(RETRIEVAL, (done) => {
      if (done === 4) ollama.faults.hang = ['/api/embed'];
      if (done === 5) ollama.faults.hang = false;
    }, impatient());
    expect(report.stopped).toBeUndefined();
    expect(report.configs.map((c) => [c.k, c.errors])).toEqual([[3, 0], [5, 1], [6, 0]]);
    expect(report.perQuestion[4]!.error?.code).toBe('OLLAMA_TIMEOUT');
  });

  it('stops once questions time out one after another while Ollama still answers its version (a stuck runner), and says so', async () => {
    // Every question's vector is stuck from the second question on; the server still answers its version.
    const report = await evalOver(RETRIEVAL, (done) => {
      if (done === 1) ollama.faults.hang = ['/api/embed'];
    }, impatient());
    expect(report.stopped?.reason).toBe('ollama-stuck');
    // The first configuration with its two timed-out questions; the second's first question alone measured nothing.
    expect(report.configs.map((c) => [c.k, c.errors])).toEqual([[3, 2]]);
    expect(report.perQuestion.map((p) => p.error?.code ?? null)).toEqual([null, 'OLLAMA_TIMEOUT', 'OLLAMA_TIMEOUT']);
    expect(report.stopped?.message).toBe(
      `The evaluation stopped because 3 questions in a row timed out at ${ollama.url} while Ollama still answered (a model stuck, or too slow for the timeout; "ollama ps" there shows what is loaded): 6 of 9 question runs were not done.`,
    );
    expect(EvalReportSchema.safeParse(report).success).toBe(true);
  });

  it('measured nothing when the server hung from the start: no report, and the error says loading the chat model timed out', async () => {
    ollama.faults.hang = true;
    await expect(evalOver(GRID, undefined, impatient())).rejects.toMatchObject({
      code: 'OLLAMA_TIMEOUT',
      message: `The evaluation stopped because Ollama at ${ollama.url} stopped answering (loading llama3.2 timed out, and so did a quick check that Ollama still answers) before any configuration was measured, so no report was written. Once the server at ${ollama.url} answers again, run it again.`,
    });
    // Stopped at the warm-up: no question was asked (each asks for the model's vocabulary first).
    expect(ollama.calls.entries.filter((c) => c.path === '/api/show' && (c.body as { verbose?: boolean })?.verbose === true)).toEqual([]);
  });

  it("says the index's embedding timed out when that is what found the server hung", async () => {
    ollama.faults.hang = true;
    // Built afresh, so the import has vectors to make (an earlier test's index has them all).
    const fresh = runEval({ docs: notes.root, questions, questionSetName: 'test set', grid: RETRIEVAL, gateway: impatient(), version: '9.9.9', workDir: path.dirname(work.file), freshIndexes: true });
    await expect(fresh).rejects.toMatchObject({
      code: 'OLLAMA_TIMEOUT',
      message: expect.stringMatching(
        /^The evaluation stopped because Ollama at \S+ stopped answering \(embedding the index for embeddinggemma, heading:256 timed out, and so did a quick check that Ollama still answers\) before any configuration was measured/,
      ),
    });
  });

  // A load that times out: a second's patience, so the sentence can say how long.
  const loadTimesOut = (retries = 0) => new OllamaGateway({ host: ollama.url, retries, timeoutMs: 1000, backoffMs: 10 });

  it("stops when the next chat model does not load in time while Ollama still answers, keeps what the first measured, and says so", async () => {
    // The first chat model's nine question runs are done; then every chat (so the second model's load) hangs.
    const report = await evalOver({ ...GRID, chatModels: ['llama3.2', 'qwen2.5:0.5b'] }, (done) => {
      if (done === 9) ollama.faults.hang = ['/api/chat'];
    }, loadTimesOut());
    expect(report.stopped?.reason).toBe('ollama-stuck');
    expect(report.configs.map((c) => [c.chatModel, c.k, c.errors])).toEqual([['llama3.2', 3, 0], ['llama3.2', 5, 0], ['llama3.2', 6, 0]]);
    // None of the second model's questions was asked: its load was the last chat request.
    expect(ollama.calls.entries.filter((c) => c.path === '/api/chat').at(-1)?.body).toMatchObject({ model: 'qwen2.5:0.5b', messages: [] });
    const sentence = `The evaluation stopped because qwen2.5:0.5b did not load at ${ollama.url} within 1 s, while Ollama still answered (a model too large or too slow to load there, or a runner stuck; "ollama ps" there shows what is loaded): 9 of 18 question runs were not done.`;
    expect(report.stopped?.message).toBe(sentence);
    expect(report.warnings).toContain(sentence);
    expect(EvalReportSchema.safeParse(report).success).toBe(true);
  });

  it('a chat model that never loads, before anything was measured: the error names the model, the tries and the host', async () => {
    ollama.faults.hang = ['/api/chat'];
    await expect(evalOver(GRID, undefined, loadTimesOut(1))).rejects.toMatchObject({
      code: 'OLLAMA_TIMEOUT',
      message: `The evaluation stopped because llama3.2 did not load at ${ollama.url} in 2 tries of 1 s each, while Ollama still answered (a model too large or too slow to load there, or a runner stuck; "ollama ps" there shows what is loaded) before any configuration was measured, so no report was written. Run it again once llama3.2 loads there, or with a chat model that does.`,
    });
  });

  it('goes on when a slow load times out once and loads when asked again', async () => {
    // The first load is taken and never answered (the model still loading); the gateway's retry finds
    // it loaded: the hang ends as the second chat request is logged, before the stand-in would hang it.
    ollama.faults.hang = ['/api/chat'];
    const log = ollama.calls.entries;
    const push = log.push.bind(log);
    log.push = (...calls) => {
      if (calls.some((c) => c.path === '/api/chat') && ollama.calls.count('/api/chat') === 1) ollama.faults.hang = false;
      return push(...calls);
    };
    try {
      const report = await evalOver(GRID, undefined, new OllamaGateway({ host: ollama.url, retries: 1, timeoutMs: 300, backoffMs: 10 }));
      expect(report.stopped).toBeUndefined();
      expect(report.configs.map((c) => [c.k, c.errors])).toEqual([[3, 0], [5, 0], [6, 0]]);
      expect(log.filter((c) => c.path === '/api/chat' && (c.body as { messages: unknown[] }).messages.length === 0)).toHaveLength(2);
    } finally {
      delete (log as { push?: unknown }).push;
    }
  });
});

describe('quire eval when Ollama goes away', () => {
  it('exits 1, says on stderr that it stopped and how many runs were not done, and saves what ran', async () => {
    const db = tempDbPath('quire-eval-gone-db-');
    try {
      const file = path.join(path.dirname(db.file), 'questions.json');
      fs.writeFileSync(file, JSON.stringify(QUESTIONS));
      const out = path.join(path.dirname(db.file), 'report.json');
      answers = 0;
      // The first configuration's two answers, then Ollama stops in the middle of the next one's first.
      stopAtAnswer = 3;
      const r = await runCli(['eval', file, '--docs', notes.root, '--chat-models', 'llama3.2', '--k', '3,5,6', '--modes', 'lexical', '--out', out], { OLLAMA_HOST: ollama.url, QUIRE_DB: db.file });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^The evaluation stopped because Ollama could not be reached at http:\/\/127\.0\.0\.1:\d+: 6 of 9 question runs were not done\.$/m);
      const saved = EvalReportSchema.parse(JSON.parse(fs.readFileSync(out, 'utf8')));
      expect(saved.configs.map((c) => c.k)).toEqual([3]);
      expect(saved.stopped).toMatchObject({ reason: 'ollama-unreachable', notDone: 6 });
      expect(r.stdout).toMatch(/^Warning: The evaluation stopped because Ollama could not be reached/m);
    } finally {
      db.dispose();
    }
  });
});
