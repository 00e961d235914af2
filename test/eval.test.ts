import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvalGrid, EvalReport } from '../shared/eval';
import { EvalReportSchema, METRICS_VERSION } from '../shared/eval';
import { describeDiff } from '../electron/cli/commands/eval';
import { diffReports } from '../electron/core/eval/diff';
import { parseQuestionSet } from '../electron/core/eval/questions';
import { runEval } from '../electron/core/eval/run';
import { OllamaGateway } from '../electron/core/ollama/gateway';
import { startStandin, type Standin } from './support/ollama-standin/server';
import { NotesFolder, tempDbPath } from './support/notes';

/** Evaluation end to end over the same search and ask paths as the app, against the stand-in. */
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
const evalOver = (grid: EvalGrid, workDir = path.dirname(work.file)) =>
  runEval({ docs: notes.root, questions: QUESTIONS, questionSetName: 'test set', grid, gateway: gateway(), version: '9.9.9', workDir });
const GRID: EvalGrid = { chatModels: ['llama3.2'], embedModels: ['embeddinggemma'], chunkers: ['heading:256'], ks: [3], modes: ['lexical', 'hybrid'], fusions: ['rrf:60'], repeats: 2 };

describe('runEval', () => {
  it('scores every grid point, with answers from the chat model, and records how to repeat it', async () => {
    const report = await evalOver(GRID);
    expect(EvalReportSchema.safeParse(report).success).toBe(true);
    expect(report.corpus.documents).toBe(3);
    expect(report.corpus.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(report.questions).toEqual({ answerable: 2, unanswerable: 1 });
    expect(report.configs.map((c) => c.mode)).toEqual(['lexical', 'hybrid']);
    for (const c of report.configs) {
      expect(c).toMatchObject({ chatModel: 'llama3.2', embedModel: 'embeddinggemma', chunker: 'heading:256', k: 3, errors: 0 });
      expect(c.metrics.hit1).toBe(1);
      expect(c.metrics.answerHasFact).toBe(1);
      expect(c.metrics.citationValid).toBe(1);
      expect(c.metrics.citesFact).toBe(1);
      expect(c.metrics.refusalAccuracy).toBe(1);
      expect(c.metrics.falseRefusals).toBe(0);
      expect(c.metrics.changedAcrossRepeats).toBe(0);
      expect(c.metrics.promptTokens.reported).toBeGreaterThan(0);
    }
    expect(report.perQuestion).toHaveLength(2 * 3 * 2);
    const keys = report.perQuestion.find((q) => q.score.questionId === 'keys')!;
    expect(keys.retrieved[0]).toMatchObject({ path: 'keys.md', hasFact: true, lines: [1, 3] });
    expect(keys.retrieved[0]!.preview).toContain('every 90 days');
    expect(keys.answer).toMatch(/90 days/);
    expect(keys.citations.every((c) => c.check === 'supported')).toBe(true);
    const wifi = report.perQuestion.find((q) => q.score.questionId === 'wifi')!;
    expect(wifi.retrieved.every((r) => r.hasFact === null)).toBe(true);
    expect(wifi.score.answer?.refused).toBe(true);

    expect(report.run.quire).toBe('9.9.9');
    expect(report.run.ollama).toMatch(/^\d+\.\d+/);
    expect(Object.keys(report.run.models).sort()).toEqual(['embeddinggemma', 'llama3.2']);
    expect(report.run.models['llama3.2']).toMatch(/^[0-9a-f]{64}$/);
    expect(report.run.grid).toEqual(GRID);
    expect(report.run.docs).toBe(notes.root);
    expect(report.run.questionSet.questions).toEqual(QUESTIONS);
  });

  it('loads each chat model, with the window its answers ask for, before timing them', async () => {
    const from = ollama.calls.entries.length;
    await evalOver({ ...GRID, modes: ['lexical'], repeats: 1 });
    const chats = ollama.calls.entries.slice(from).filter((c) => c.path === '/api/chat');
    const body = (c: (typeof chats)[number]) => c.body as { messages: unknown[]; options?: { num_ctx?: number } };
    expect(body(chats[0]!).messages).toEqual([]);
    const answers = chats.slice(1).filter((c) => body(c).messages.length > 0);
    expect(answers.length).toBeGreaterThan(0);
    // The same num_ctx, so Ollama does not reload the model for the first question.
    expect(answers.every((c) => body(c).options?.num_ctx === body(chats[0]!).options?.num_ctx)).toBe(true);
  });

  it('without a chat model: retrieval metrics only, answer metrics not run (null)', async () => {
    const report = await evalOver({ ...GRID, chatModels: [], ks: [1], modes: ['hybrid'], repeats: 1 });
    const m = report.configs[0]!.metrics;
    expect(report.configs[0]!.chatModel).toBeNull();
    expect(m.hit1).toBe(1);
    expect(m.mrr).toBe(1);
    expect(m.answerHasFact).toBeNull();
    expect(m.refusalAccuracy).toBeNull();
    expect(m.truncations).toBeNull();
    expect(report.perQuestion.every((q) => q.answer === null && q.retrieved.length === 1)).toBe(true);
  });

  it('a rerun reproduces the same numbers; a changed document shows up as differences', async () => {
    const dir = fs.mkdtempSync(path.join(path.dirname(work.file), 'rerun-'));
    const grid: EvalGrid = { ...GRID, chunkers: ['heading:256', 'fixed:64/8'], repeats: 1 };
    const first = await evalOver(grid, dir);
    const calls = ollama.calls.entries.length;
    const second = await evalOver(grid, dir);
    // The indexes were reused: the rerun embedded only the questions, never a document again.
    const embedInputs = ollama.calls.entries.slice(calls).filter((c) => c.path === '/api/embed').flatMap((c) => (c.body as { input: string[] }).input);
    expect(embedInputs.some((t) => t.includes('Tomatoes need stakes'))).toBe(false);

    const strip = (r: EvalReport) =>
      r.configs.map((c) => ({ ...c, metrics: { ...c.metrics, latencyMs: null, tokensPerSecond: null } }));
    expect(strip(second)).toEqual(strip(first));
    expect(second.perQuestion.map((q) => [q.answer, q.retrieved, q.citations])).toEqual(first.perQuestion.map((q) => [q.answer, q.retrieved, q.citations]));
    const same = diffReports(first, second);
    expect(same).toMatchObject({ same: true, corpus: null, questionSet: null, versions: [], metrics: [], questions: [], configsOnlyBefore: [], configsOnlyAfter: [] });

    notes.write('bread.md', '# Bread\n\nThe sourdough loaf bakes until golden.\n');
    try {
      const third = await evalOver(grid, dir);
      const changed = diffReports(first, third);
      expect(changed.same).toBe(false);
      expect(changed.corpus?.after.fingerprint).not.toBe(first.corpus.fingerprint);
      // The bread fact is gone: hit@1 falls from 1 to 1/2 in every configuration.
      const hit1 = changed.metrics.filter((m) => m.metric === 'hit1');
      expect(hit1).toHaveLength(4);
      expect(hit1.every((m) => m.before === 1 && m.after === 0.5)).toBe(true);
      expect(changed.questions.some((q) => q.questionId === 'bread' && q.what === 'answer')).toBe(true);
    } finally {
      notes.write('bread.md', '# Bread\n\nThe sourdough loaf bakes for twenty minutes.\n');
    }
  });

  it('records a failing question and goes on: errors counted, answer metrics left to what did run', async () => {
    const report = await evalOver({ ...GRID, chatModels: ['no-such-model', 'llama3.2'], modes: ['lexical'], repeats: 1 });
    // A model Ollama does not have is no Ollama gone: the next configuration runs, and is measured.
    expect(report.stopped).toBeUndefined();
    expect(report.configs[1]).toMatchObject({ chatModel: 'llama3.2', errors: 0 });
    expect(report.configs[1]!.metrics.answerHasFact).toBe(1);
    const c = report.configs[0]!;
    // The wifi question finds no usable passage, so Quire refuses it without calling the model at all.
    expect(c.errors).toBe(2);
    expect(c.metrics.answerHasFact).toBeNull();
    expect(c.metrics.refusalAccuracy).toBe(1);
    expect(c.metrics.hit1).toBe(1);
    expect(report.perQuestion.map((q) => q.error?.code ?? null)).toEqual(['MODEL_NOT_FOUND', 'MODEL_NOT_FOUND', null, null, null, null]);
    expect(report.run.models['no-such-model']).toBeNull();
    // The tables only count errors: the report says once why they failed, and where.
    expect(report.warnings).toEqual([
      '2 question runs of configuration “no-such-model · heading:256 · k=3 · lexical” failed: Ollama does not list no-such-model:latest. Pull it with: ollama pull no-such-model:latest',
    ]);
  });

  it('never scores lexical results as dense: an embedding model that is not there fails each dense question', async () => {
    const report = await evalOver({ chatModels: [], embedModels: ['no-such-embedder'], chunkers: ['heading:256'], ks: [3], modes: ['dense', 'lexical'], fusions: ['rrf:60'], repeats: 1 });
    const [dense, lexical] = report.configs;
    expect(dense).toMatchObject({ mode: 'dense', errors: 3 });
    // A dense search that could not run measured nothing: no rate, rather than 0% (or lexical's).
    expect(dense!.metrics.hit1).toBeNull();
    expect(report.perQuestion.filter((q) => q.config === 0).every((q) => q.score.retrieval === null)).toBe(true);
    // The time of a search that ran in another mode says nothing about this one.
    expect(dense!.metrics.latencyMs.retrieve).toEqual({ p50: null, p95: null });
    expect(report.perQuestion.filter((q) => q.config === 0).every((q) => q.retrieved.length === 0 && /Asked for dense search/.test(q.error?.message ?? ''))).toBe(true);
    expect(lexical).toMatchObject({ mode: 'lexical', errors: 0 });
    expect(lexical!.metrics.hit1).toBe(1);
    // The index's own warning says why; its dense questions' failures are not said again.
    expect(report.warnings).toHaveLength(1);
    expect(report.warnings![0]).toMatch(/^The index for no-such-embedder, heading:256 has no vectors/);
  });

  it('treats equal settings as one configuration, however they are spelled', async () => {
    const report = await evalOver({ chatModels: [], embedModels: ['embeddinggemma', 'embeddinggemma:latest', ' embeddinggemma'], chunkers: ['heading', 'heading:256', ' heading:256'], ks: [3, 3], modes: ['lexical', 'lexical'], fusions: ['rrf:60', 'rrf'], repeats: 1 });
    expect(report.configs).toHaveLength(1);
    expect(report.run.grid).toMatchObject({ embedModels: ['embeddinggemma'], chunkers: ['heading:256'], ks: [3], modes: ['lexical'] });
  });

  it('reads a model named with and without :latest as one: the same index, and reports that compare as equal', async () => {
    // The command line is given "embeddinggemma", the Evaluate form picks the installed "embeddinggemma:latest".
    const dir = fs.mkdtempSync(path.join(path.dirname(work.file), 'latest-'));
    const grid: EvalGrid = { chatModels: [], embedModels: ['embeddinggemma'], chunkers: ['heading:256'], ks: [3], modes: ['hybrid'], fusions: ['rrf:60'], repeats: 1 };
    const typed = await evalOver(grid, dir);
    const calls = ollama.calls.entries.length;
    const picked = await evalOver({ ...grid, embedModels: ['embeddinggemma:latest'] }, dir);
    const embedInputs = ollama.calls.entries.slice(calls).filter((c) => c.path === '/api/embed').flatMap((c) => (c.body as { input: string[] }).input);
    expect(embedInputs.some((t) => t.includes('Tomatoes need stakes'))).toBe(false);
    expect(fs.readdirSync(dir).filter((f) => f.endsWith('.db'))).toHaveLength(1);
    expect(picked.configs[0]!.embedModel).toBe('embeddinggemma');
    expect(diffReports(typed, picked)).toMatchObject({ same: true, versions: [], configsOnlyBefore: [], configsOnlyAfter: [] });
  });

  it('compares a report saved with ":latest" names with one without, configuration by configuration', async () => {
    const report = await evalOver({ ...GRID, repeats: 1 });
    const tagged: EvalReport = {
      ...report,
      configs: report.configs.map((c) => ({ ...c, chatModel: `${c.chatModel}:latest`, embedModel: `${c.embedModel}:latest` })),
      run: { ...report.run, models: Object.fromEntries(Object.entries(report.run.models).map(([m, d]) => [`${m}:latest`, d])) },
    };
    expect(diffReports(tagged, report)).toMatchObject({ same: true, versions: [], configsOnlyBefore: [], configsOnlyAfter: [], metrics: [], questions: [] });
  });

  it('a window too small for any source leaves fact sent unmeasured, and retrieval still scored', async () => {
    const report = await runEval({
      docs: notes.root,
      questions: QUESTIONS,
      questionSetName: 'test set',
      grid: { ...GRID, chatModels: [], modes: ['lexical'], repeats: 1 },
      gateway: gateway(),
      version: '9.9.9',
      workDir: path.dirname(work.file),
      numCtxCap: 512,
    });
    const m = report.configs[0]!.metrics;
    expect(report.configs[0]!.errors).toBe(0);
    expect(m.hitK).toBeGreaterThan(0);
    expect(m.factSent).toBeNull();
    expect(m.sourceTokensP50).toBeNull();
  });

  it('varies fusion for hybrid search only, and each fusion ranks by its own rule', async () => {
    const report = await evalOver({ chatModels: [], embedModels: ['embeddinggemma'], chunkers: ['heading:256'], ks: [3], modes: ['lexical', 'hybrid'], fusions: ['rrf:60', 'weighted:1'], repeats: 1 });
    expect(report.configs.map((c) => [c.mode, c.fusion])).toEqual([['lexical', 'rrf:60'], ['hybrid', 'rrf:60'], ['hybrid', 'weighted:1']]);
    // weighted:1 is the vector ranking alone: the same passages, in the same order, as a dense search.
    const dense = await evalOver({ chatModels: [], embedModels: ['embeddinggemma'], chunkers: ['heading:256'], ks: [3], modes: ['dense'], fusions: ['rrf:60'], repeats: 1 });
    const ids = (r: typeof report, config: number) => r.perQuestion.filter((q) => q.config === config).map((q) => q.retrieved.map((x) => x.chunkId));
    expect(ids(report, 2)).toEqual(ids(dense, 0));
  });

  it('asks every repeat with the same prompt, and leaves Quire-made refusals out of token and latency figures', async () => {
    const report = await evalOver({ ...GRID, modes: ['hybrid'], repeats: 3 });
    const keys = report.perQuestion.filter((q) => q.score.questionId === 'keys').map((q) => q.score.answer!.estimatedTokens);
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
    expect(report.configs[0]!.metrics.changedAcrossRepeats).toBe(0);
    expect(report.run.answerSettings).toEqual({ numCtxCap: 8192, numPredict: 512, temperature: 0, seed: 42, maxDistance: 1.05 });

    const lexical = await evalOver({ ...GRID, modes: ['lexical'], repeats: 1 });
    const wifi = lexical.perQuestion.find((q) => q.score.questionId === 'wifi')!;
    expect(wifi.score.answer).toMatchObject({ refused: true, estimatedTokens: null, generateMs: null });
    const answered = lexical.perQuestion.filter((q) => q.score.answer?.estimatedTokens != null).map((q) => q.score.answer!.estimatedTokens!);
    expect(lexical.configs[0]!.metrics.promptTokens.estimated).toBe(answered.reduce((a, b) => a + b, 0) / answered.length);
  });

  it('warns when the documents change between one index and the next', async () => {
    const grid: EvalGrid = { chatModels: [], embedModels: ['embeddinggemma'], chunkers: ['heading:256', 'fixed:64/8'], ks: [3], modes: ['lexical'], fusions: ['rrf:60'], repeats: 1 };
    const calm = await evalOver(grid);
    expect(calm.warnings).toEqual([]);
    let changed = false;
    try {
      const report = await runEval({
        docs: notes.root,
        questions: QUESTIONS,
        questionSetName: 'test set',
        grid,
        gateway: gateway(),
        version: '9.9.9',
        workDir: path.dirname(work.file),
        onProgress: (_done, _total, label) => {
          if (!changed && label.startsWith('indexing') && label.includes('fixed:64/8')) {
            changed = true;
            notes.write('late.md', '# Late\n\nA note that arrived mid-run.\n');
          }
        },
      });
      expect(changed).toBe(true);
      expect(report.warnings).toHaveLength(1);
      expect(report.warnings![0]).toMatch(/^The documents changed during the run: the index for embeddinggemma, fixed:64\/8 holds 4 documents .*an earlier one 3 /);
      expect(report.corpus.documents).toBe(3);
    } finally {
      notes.remove('late.md');
    }
  });

  it('keeps the configurations that finished when cancelled, if asked to, and says the rest did not run', async () => {
    const controller = new AbortController();
    const report = await runEval({
      docs: notes.root,
      questions: QUESTIONS,
      questionSetName: 'test set',
      grid: { ...GRID, repeats: 1 },
      gateway: gateway(),
      version: '9.9.9',
      workDir: path.dirname(work.file),
      signal: controller.signal,
      keepPartial: true,
      // The first configuration's last question is done: cancel before the second begins.
      onProgress: (done) => {
        if (done === QUESTIONS.length) controller.abort();
      },
    });
    expect(report.configs.map((c) => c.mode)).toEqual(['lexical']);
    expect(report.perQuestion).toHaveLength(QUESTIONS.length);
    expect(report.warnings).toEqual(['Cancelled after 1 of 2 configurations; the others did not run.']);
    expect(report.run.models['llama3.2']).toMatch(/^[0-9a-f]{64}$/);
  });

  it('stops on cancellation with an abort, not a half report', async () => {
    const controller = new AbortController();
    const run = runEval({
      docs: notes.root,
      questions: QUESTIONS,
      questionSetName: 'test set',
      grid: GRID,
      gateway: gateway(),
      version: '9.9.9',
      workDir: path.dirname(work.file),
      signal: controller.signal,
      onProgress: (done) => {
        if (done === 2) controller.abort();
      },
    });
    await expect(run).rejects.toThrow();
  });
});

describe('keyword configurations, which use no embedding model', () => {
  const TWO_MODELS: EvalGrid = { chatModels: [], embedModels: ['embeddinggemma', 'nomic-embed-text'], chunkers: ['heading:256'], ks: [3], modes: ['lexical', 'hybrid'], fusions: ['rrf:60'], repeats: 1 };

  it('run once per chunker, in the first model’s index, not once per embedding model', async () => {
    const progress: Array<[number, number]> = [];
    const report = await runEval({
      docs: notes.root, questions: QUESTIONS, questionSetName: 'test set', grid: TWO_MODELS, gateway: gateway(), version: '9.9.9', workDir: path.dirname(work.file),
      onProgress: (done, total) => progress.push([done, total]),
    });
    expect(report.configs.map((c) => [c.mode, c.embedModel])).toEqual([['lexical', 'embeddinggemma'], ['hybrid', 'embeddinggemma'], ['hybrid', 'nomic-embed-text']]);
    expect(report.perQuestion).toHaveLength(3 * QUESTIONS.length);
    expect(progress.at(-1)).toEqual([9, 9]);
    expect(report.stopped).toBeUndefined();
  });

  it('need no index of their own: keyword search alone over two models builds one', async () => {
    const dir = fs.mkdtempSync(path.join(path.dirname(work.file), 'keyword-only-'));
    const report = await evalOver({ ...TWO_MODELS, modes: ['lexical'] }, dir);
    expect(report.configs).toHaveLength(1);
    expect(fs.readdirSync(dir).filter((f) => f.endsWith('.db'))).toHaveLength(1);
    expect(report.run.indexes).toEqual([{ embedModel: 'embeddinggemma', chunker: 'heading:256', reused: false, documentsRead: 3 }]);
  });

  it('compare with an older report’s keyword row per model as one configuration, so a rerun reproduces it', async () => {
    const report = await evalOver(TWO_MODELS);
    // As Quire wrote it before: the keyword row again for the second model, the same numbers.
    const older: EvalReport = {
      ...report,
      configs: [...report.configs, { ...report.configs[0]!, embedModel: 'nomic-embed-text' }],
      perQuestion: [...report.perQuestion, ...report.perQuestion.filter((q) => q.config === 0).map((q) => ({ ...q, config: 3 }))],
    };
    expect(diffReports(older, report)).toMatchObject({ same: true, configsOnlyBefore: [], configsOnlyAfter: [], metrics: [], questions: [] });
  });
});

describe('what a report measured', () => {
  /** A stored report as Quire wrote it before hit@n counted passages: no hit@3, hit@5, fact sent or fusion, and no metricsVersion. */
  function chunkEraJson(r: EvalReport): unknown {
    const json = JSON.parse(JSON.stringify(r)) as { metricsVersion?: number; configs: Array<Record<string, unknown> & { metrics: Record<string, unknown> }>; run: { grid: Record<string, unknown> } };
    delete json.metricsVersion;
    for (const c of json.configs) {
      delete c.fusion;
      for (const key of ['hit3', 'hit5', 'factSent', 'sourceTokensP50']) delete c.metrics[key];
    }
    delete json.run.grid.fusions;
    return json;
  }

  it('records how hit@n was counted; a report from before it was recorded reads as what it measured', async () => {
    const report = await evalOver({ ...GRID, chatModels: [], modes: ['lexical'], repeats: 1 });
    expect(report.metricsVersion).toBe(METRICS_VERSION);
    // Quire's version was 0.1.0 on both sides of the change: only the metrics tell the reports apart.
    const chunkEra = EvalReportSchema.parse(chunkEraJson(report));
    expect(chunkEra.metricsVersion).toBe(1);
    const { metricsVersion: _, ...unversioned } = JSON.parse(JSON.stringify(report)) as EvalReport;
    expect(EvalReportSchema.parse(unversioned).metricsVersion).toBe(METRICS_VERSION);
  });

  it('comparing reports that counted hit@n differently says so, and is never "reproduced"', async () => {
    const report = await evalOver({ ...GRID, chatModels: [], modes: ['lexical'], repeats: 1 });
    const chunkEra = EvalReportSchema.parse(chunkEraJson(report));
    const diff = diffReports(chunkEra, report);
    expect(diff.same).toBe(false);
    expect(diff.metricsVersions).toEqual({ before: 1, after: METRICS_VERSION });
    expect(describeDiff(diff, 'old.json')).toContain(
      '  The report in old.json and this run measured hit@n and MRR differently, so those numbers do not compare: the report in old.json looked for the fact in the chunk found at each rank, this run in the passage found at each rank (the chunk with its neighbours, as an answer is sent it).',
    );
    expect(diffReports(report, report).metricsVersions).toBeNull();
  });
});

describe('runEval on a crafted corpus whose right scores are known by construction', () => {
  it('counts a hit, a fact farther from the matched words than a passage reaches as a miss, and an answered unanswerable question as a wrong refusal', async () => {
    const crafted = new NotesFolder('quire-eval-crafted-');
    try {
      crafted.write('alpha.md', 'The alpha reactor runs at four hundred kelvin on weekdays.\n');
      // One section far longer than a passage (PASSAGE_TOKENS): the question's words are all in its
      // opening sentence, the fact a hundred logbook lines (over a thousand tokens) further on, so
      // no passage grown from a hit reaches it.
      crafted.write(
        'long.md',
        'The maintenance crew inspects every cooling pipe, valve, pump, gasket, flange, sensor and control cable of the gamma plant during the long and very cold winter shutdown each year, then writes a report for the safety board.\n' +
          Array.from({ length: 120 }, (_, i) => `Logbook page ${i + 1} lists the paperwork filed that week.`).join('\n') +
          '\n',
      );
      crafted.write('beta.md', 'The beta reactor is painted in a dull grey colour.\n');
      const questions = parseQuestionSet(
        JSON.stringify([
          { id: 'alpha', question: 'At what temperature does the alpha reactor run?', expect: { chunkFact: 'four hundred kelvin', answerable: true } },
          {
            id: 'far',
            question: 'Does the crew inspect the gamma plant cooling pipe in the long winter shutdown?',
            expect: { chunkFact: 'Logbook page 110 lists the paperwork filed that week', answerable: true },
          },
          // Not in the documents (they never say who built it), but close enough that the model answers anyway.
          { id: 'builder', question: 'Who painted the beta reactor grey?', expect: { answerable: false } },
        ]),
      );
      const report = await runEval({
        docs: crafted.root,
        questions,
        questionSetName: 'crafted',
        grid: { chatModels: ['llama3.2'], embedModels: ['embeddinggemma'], chunkers: ['fixed:12/0'], ks: [3], modes: ['lexical'], fusions: ['rrf:60'], repeats: 1 },
        gateway: gateway(),
        version: '9.9.9',
        workDir: path.dirname(work.file),
      });
      const far = report.perQuestion.find((q) => q.score.questionId === 'far')!;
      expect(far.retrieved.length).toBeGreaterThan(0);
      expect(far.retrieved[0]!.preview).toContain('gamma plant');
      expect(far.retrieved.every((r) => r.hasFact === false)).toBe(true);
      const builder = report.perQuestion.find((q) => q.score.questionId === 'builder')!;
      expect(builder.score.answer?.refused).toBe(false);
      const m = report.configs[0]!.metrics;
      expect(m.hit1).toBe(0.5);
      expect(m.hitK).toBe(0.5);
      expect(m.mrr).toBe(0.5);
      expect(m.refusalAccuracy).toBe(0);
    } finally {
      crafted.dispose();
    }
  });
});
