import { METRICS_VERSION, type EvalMetrics, type EvalConfigResult, type EvalQuestionRun, type EvalReport, type Question } from '../../../shared/eval';

/** Small, hand-checked evaluation reports for renderer tests. */

export function metrics(over: Partial<EvalMetrics> = {}): EvalMetrics {
  return {
    hit1: 0.5,
    hit3: 1,
    hit5: 1,
    hitK: 1,
    mrr: 0.75,
    factSent: 1,
    sourceTokensP50: 640,
    answerHasFact: 1,
    citationValid: 1,
    supportedCitationRate: 0.5,
    citesFact: 1,
    refusalAccuracy: 1,
    falseRefusals: 0,
    promptTokens: { estimated: 812, reported: 790, exact: 0 },
    truncations: 0,
    latencyMs: { retrieve: { p50: 12, p95: 30 }, generate: { p50: 900, p95: 1400 } },
    tokensPerSecond: 31.5,
    changedAcrossRepeats: null,
    ...over,
  };
}

const ANSWER_METRICS_NULL: Partial<EvalMetrics> = {
  answerHasFact: null,
  citationValid: null,
  supportedCitationRate: null,
  citesFact: null,
  refusalAccuracy: null,
  falseRefusals: null,
  promptTokens: { estimated: null, reported: null, exact: null },
  truncations: null,
  latencyMs: { retrieve: { p50: 4, p95: 9 }, generate: { p50: null, p95: null } },
  tokensPerSecond: null,
};

export const QUESTIONS: Question[] = [
  { id: 'keys', question: 'How often are the deploy keys rotated?', expect: { chunkFact: 'every 90 days', answerRegex: '90 days', answerable: true }, file: 'key-rotation.md' },
  { id: 'wifi', question: 'What is the office wifi password?', expect: { answerable: false } },
];

export const CONFIGS: EvalConfigResult[] = [
  { chatModel: 'llama3.2:latest', embedModel: 'embeddinggemma:latest', chunker: 'heading:256', k: 5, mode: 'hybrid', fusion: 'rrf:60', metrics: metrics({ hitK: 0.5, mrr: 0.5, answerHasFact: 0.5 }), errors: 0 },
  { chatModel: 'qwen2.5:0.5b', embedModel: 'embeddinggemma:latest', chunker: 'heading:256', k: 5, mode: 'hybrid', fusion: 'rrf:60', metrics: metrics({ hitK: 1, mrr: 1, answerHasFact: null, tokensPerSecond: 80 }), errors: 0 },
  { chatModel: null, embedModel: 'embeddinggemma:latest', chunker: 'heading:256', k: 5, mode: 'lexical', fusion: 'rrf:60', metrics: metrics({ ...ANSWER_METRICS_NULL, hitK: 0.75, mrr: 0.6 }), errors: 1 },
];

function chunk(n: number, hasFact: boolean | null) {
  return {
    chunkId: `doc${n}#0`,
    path: n === 1 ? 'key-rotation.md' : `other-${n}.md`,
    heading: n === 1 ? 'Key rotation' : `Other ${n}`,
    lines: [3, 5] as [number, number],
    preview: n === 1 ? 'We rotate the deploy keys every 90 days.' : `Unrelated passage ${n}.`,
    hasFact,
  };
}

function run(config: number, q: Question, answer: string | null, over: Partial<EvalQuestionRun> = {}): EvalQuestionRun {
  const answerable = q.expect.answerable;
  const refused = answer === 'Not in the documents.';
  return {
    config,
    score: {
      questionId: q.id,
      repeat: 0,
      answerable,
      retrieval: answerable ? { hit1: config !== 0, hit3: true, hit5: true, hitK: true, reciprocalRank: config === 0 ? 0.5 : 1, factSent: true, sourceTokens: 640 } : null,
      retrieveMs: 10 + config,
      answer:
        answer === null
          ? null
          : {
              answerHasFact: answerable ? /90 days/i.test(answer) : null,
              citationValid: refused ? null : 1,
              supportedCitationRate: refused ? null : 1,
              citesFact: answerable ? !refused : null,
              refused,
              estimatedTokens: 800,
              reportedTokens: 790,
              exactTokens: false,
              truncated: false,
              generateMs: 900,
              tokensPerSecond: 30,
              normalisedText: answer.toLowerCase(),
            },
    },
    answer,
    retrieved: config === 0 ? [chunk(2, answerable ? false : null), chunk(1, answerable ? true : null)] : [chunk(1, answerable ? true : null), chunk(3, answerable ? false : null)],
    citations: answer && !refused ? [{ chunkId: 'doc1#0', check: 'supported' }] : [],
    error: null,
    ...over,
  };
}

export function report(over: Partial<EvalReport> = {}): EvalReport {
  const [keys, wifi] = QUESTIONS as [Question, Question];
  return {
    metricsVersion: METRICS_VERSION,
    corpus: { documents: 4, fingerprint: 'f00dfacecafe1234567890abcdef' },
    questions: { answerable: 1, unanswerable: 1 },
    configs: CONFIGS,
    perQuestion: [
      run(0, keys, 'The deploy keys are rotated every 90 days [doc1#0].'),
      run(0, wifi, 'Not in the documents.'),
      run(1, keys, 'Keys get rotated every 3 months [doc1#0].'),
      run(1, wifi, 'The password is hunter2 [doc1#0].'),
      run(2, keys, null),
      run(2, wifi, null, { error: { code: 'OLLAMA_UNREACHABLE', message: 'connect ECONNREFUSED' } }),
    ],
    run: {
      quire: '0.1.0',
      ollama: '0.12.6',
      models: { 'llama3.2:latest': 'sha256:abcdef0123456789abcdef', 'qwen2.5:0.5b': null, 'embeddinggemma:latest': '0123456789abcdef0123' },
      at: '2026-03-01T10:00:00Z',
      ms: 65_000,
      answerSettings: { numCtxCap: 8192, numPredict: 512, temperature: 0, seed: 42, maxDistance: 1.1 },
      grid: { chatModels: ['llama3.2:latest', 'qwen2.5:0.5b'], embedModels: ['embeddinggemma:latest'], chunkers: ['heading:256'], ks: [5], modes: ['hybrid', 'lexical'], fusions: ['rrf:60'], repeats: 1 },
      docs: '/home/me/notes',
      questionSet: { name: '.quire-questions.json', sha256: 'aa', questions: QUESTIONS },
    },
    ...over,
  } as EvalReport;
}

/**
 * A report with `n` configurations (k = 1…n, hit@k = (i mod 10) / 10) and `repeats` repeats of
 * every question, answered by one model; the answer to "keys" changes in repeat 1 of config 0.
 */
export function bigReport(n: number, repeats = 1): EvalReport {
  const base = report();
  const configs: EvalConfigResult[] = Array.from({ length: n }, (_, i) => ({
    ...(CONFIGS[0] as EvalConfigResult),
    k: i + 1,
    metrics: metrics({ hitK: (i % 10) / 10 }),
    errors: 0,
  }));
  const perQuestion: EvalQuestionRun[] = [];
  const [keys, wifi] = QUESTIONS as [Question, Question];
  for (let c = 0; c < n; c++) {
    for (let r = 0; r < repeats; r++) {
      const changed = c === 0 && r === 1;
      const k = run(0, keys, changed ? 'Keys rotate quarterly [doc1#0].' : 'The deploy keys are rotated every 90 days [doc1#0].');
      perQuestion.push({ ...k, config: c, score: { ...k.score, repeat: r } });
      const w = run(0, wifi, 'Not in the documents.');
      perQuestion.push({ ...w, config: c, score: { ...w.score, repeat: r } });
    }
  }
  return { ...base, configs, perQuestion, run: { ...base.run, grid: { ...base.run.grid, repeats } } };
}
