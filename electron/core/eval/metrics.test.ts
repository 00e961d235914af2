import { describe, expect, it } from 'vitest';
import type { CitationCheck } from '../../../shared/answer';
import {
  aggregate,
  containsFact,
  percentileNearestRank,
  scoreOutcomes,
  scoreQuestion,
  type AnswerOutcome,
  type QuestionOutcome,
} from './metrics';
import type { Question } from './questions';

// A crafted corpus: each fact's location is known by construction.
const CORPUS = {
  c1: 'Deploy keys are rotated every 90 days by the ops team.',
  // Same fact as c1, different case and whitespace: a tie.
  c2: 'Reminder: rotation happens EVERY  90\n days, no exceptions.',
  // The bake fact "with the lid on for twenty minutes" is split across c3 and c4.
  c3: 'The sourdough is baked at 250 °C with the lid',
  c4: 'on for twenty minutes, then uncovered.',
  c5: 'Tomatoes should be planted 60 cm apart.',
  c6: 'The public beta starts April 28.',
} as const;
type ChunkId = keyof typeof CORPUS;
const chunks = (...ids: ChunkId[]) => ids.map((chunkId) => ({ chunkId, text: CORPUS[chunkId] }));

const QUESTIONS: Question[] = [
  { id: 'keys', question: 'How often are keys rotated?', expect: { chunkFact: 'every 90 days', answerRegex: '90 days', answerable: true } },
  { id: 'bake', question: 'How long with the lid on?', expect: { chunkFact: 'with the lid on for twenty minutes', answerRegex: 'twenty minutes', answerable: true } },
  { id: 'tomato', question: 'Tomato spacing?', expect: { chunkFact: '60 cm apart', answerRegex: '60 ?cm', answerable: true } },
  { id: 'beta', question: 'When is the beta?', expect: { answerRegex: 'April 28', answerable: true } },
  { id: 'vault', question: 'Vault password?', expect: { answerable: false } },
  { id: 'wifi', question: 'Wifi password?', expect: { answerable: false } },
];
const Q = (id: string) => QUESTIONS.find((q) => q.id === id)!;

const RETRIEVED: Record<string, ChunkId[]> = {
  keys: ['c5', 'c2', 'c1'], // tie at ranks 2 and 3: rank 2 counts → RR 1/2
  bake: ['c3', 'c4', 'c1'], // fact spans c3+c4: no hit
  tomato: ['c5', 'c1', 'c6'], // hit at rank 1
  beta: ['c6', 'c1', 'c2'],
  vault: ['c1', 'c2', 'c3'],
  wifi: ['c1', 'c5', 'c6'],
};

const cite = (...pairs: Array<[string, CitationCheck]>) => pairs.map(([chunkId, check]) => ({ chunkId, check }));

interface Row {
  id: string;
  repeat: number;
  text: string;
  refused: boolean;
  citations: Array<{ chunkId: string; check: CitationCheck }>;
  est: number;
  rep: number | null;
  trunc: boolean;
  gen: number;
  tps: number | null;
  ret: number;
}

// prettier-ignore
const ROWS: Row[] = [
  { id: 'keys', repeat: 0, text: 'Keys rotate every 90 days [c1].', refused: false, citations: cite(['c1', 'supported']), est: 1000, rep: 990, trunc: false, gen: 1200, tps: 20, ret: 10 },
  { id: 'keys', repeat: 1, text: '  keys rotate EVERY 90\n days [c1]. ', refused: false, citations: cite(['c1', 'supported']), est: 1000, rep: 990, trunc: false, gen: 1100, tps: 22, ret: 12 },
  { id: 'bake', repeat: 0, text: 'With the lid on for twenty minutes [c3][c4].', refused: false, citations: cite(['c3', 'weak'], ['c4', 'supported']), est: 1200, rep: 600, trunc: true, gen: 900, tps: 18, ret: 11 },
  { id: 'bake', repeat: 1, text: 'With the lid on for twenty minutes [c3][c4].', refused: false, citations: cite(['c3', 'weak'], ['c4', 'supported']), est: 1200, rep: 1190, trunc: false, gen: 950, tps: null, ret: 9 },
  { id: 'tomato', repeat: 0, text: 'Plant them 60cm apart [c5][c9].', refused: false, citations: cite(['c5', 'supported'], ['c9', 'unknown-source']), est: 800, rep: 790, trunc: false, gen: 700, tps: 25, ret: 30 },
  { id: 'tomato', repeat: 1, text: "I can't find that in your notes.", refused: true, citations: [], est: 800, rep: 790, trunc: false, gen: 400, tps: 30, ret: 8 },
  { id: 'beta', repeat: 0, text: 'The beta starts April 28 [c6].', refused: false, citations: cite(['c6', 'unsupported']), est: 900, rep: null, trunc: false, gen: 800, tps: 20, ret: 14 },
  { id: 'beta', repeat: 1, text: 'The beta starts April 28 [c6].', refused: false, citations: cite(['c6', 'unsupported']), est: 900, rep: null, trunc: false, gen: 850, tps: 20, ret: 13 },
  { id: 'vault', repeat: 0, text: "I can't find that in your notes.", refused: true, citations: [], est: 500, rep: null, trunc: false, gen: 0, tps: null, ret: 7 },
  { id: 'vault', repeat: 1, text: "I can't find that in your notes.", refused: true, citations: [], est: 500, rep: null, trunc: false, gen: 0, tps: null, ret: 6 },
  { id: 'wifi', repeat: 0, text: 'The password is hunter2 [c1].', refused: false, citations: cite(['c1', 'unsupported']), est: 700, rep: 690, trunc: false, gen: 1000, tps: 24, ret: 15 },
  { id: 'wifi', repeat: 1, text: 'The password is hunter2 [c1].', refused: false, citations: cite(['c1', 'unsupported']), est: 700, rep: 690, trunc: false, gen: 1050, tps: 21, ret: 100 },
];

function citedTexts(citations: Row['citations']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const c of citations) if (c.chunkId in CORPUS) out[c.chunkId] = CORPUS[c.chunkId as ChunkId];
  return out;
}

function outcome(r: Row, withAnswer = true): QuestionOutcome {
  const answer: AnswerOutcome = {
    text: r.text,
    refused: r.refused,
    citations: r.citations,
    citedTexts: citedTexts(r.citations),
    estimatedTokens: r.est,
    reportedTokens: r.rep,
    truncated: r.trunc,
    generateMs: r.gen,
    tokensPerSecond: r.tps,
  };
  return {
    questionId: r.id,
    repeat: r.repeat,
    retrieved: chunks(...RETRIEVED[r.id]!),
    k: 3,
    retrieveMs: r.ret,
    ...(withAnswer ? { answer } : {}),
  };
}

describe('containsFact', () => {
  it('ignores case and whitespace differences, and needs the whole fact', () => {
    expect(containsFact(CORPUS.c2, 'every 90 days')).toBe(true);
    expect(containsFact(CORPUS.c3, 'with the lid on for twenty minutes')).toBe(false);
    expect(containsFact(CORPUS.c4, 'with the lid on for twenty minutes')).toBe(false);
    expect(containsFact('anything', '   ')).toBe(false);
  });
});

describe('scoreQuestion: retrieval', () => {
  it('counts the earlier of two tied hits', () => {
    const s = scoreQuestion(Q('keys'), outcome(ROWS[0]!));
    expect(s.retrieval).toEqual({ hit1: false, hit3: true, hit5: true, hitK: true, reciprocalRank: 0.5, factSent: null, sourceTokens: null });
  });

  it('gives no hit when the fact spans two chunks', () => {
    const s = scoreQuestion(Q('bake'), outcome(ROWS[2]!));
    expect(s.retrieval).toEqual({ hit1: false, hit3: false, hit5: false, hitK: false, reciprocalRank: 0, factSent: null, sourceTokens: null });
  });

  it('ignores chunks ranked below k', () => {
    const o: QuestionOutcome = { questionId: 'tomato', repeat: 0, retrieved: chunks('c1', 'c2', 'c6', 'c5'), k: 3, retrieveMs: 1 };
    expect(scoreQuestion(Q('tomato'), o).retrieval).toEqual({ hit1: false, hit3: false, hit5: true, hitK: false, reciprocalRank: 0, factSent: null, sourceTokens: null });
    expect(scoreQuestion(Q('tomato'), { ...o, k: 4 }).retrieval).toEqual({ hit1: false, hit3: false, hit5: true, hitK: true, reciprocalRank: 0.25, factSent: null, sourceTokens: null });
  });

  it('says whether the fact reached the prompt, whatever the ranking', () => {
    const o: QuestionOutcome = { questionId: 'tomato', repeat: 0, retrieved: chunks('c5', 'c1'), k: 3, retrieveMs: 1 };
    // Ranked first but not sent (the budget left it out): not sent.
    expect(scoreQuestion(Q('tomato'), { ...o, sent: { texts: [CORPUS.c1], tokens: 40 } }).retrieval).toMatchObject({ hit1: true, factSent: false, sourceTokens: 40 });
    // Sent as part of a longer passage: sent.
    expect(scoreQuestion(Q('tomato'), { ...o, sent: { texts: [`${CORPUS.c6}\n${CORPUS.c5}`], tokens: 55 } }).retrieval).toMatchObject({ factSent: true, sourceTokens: 55 });
    // A fact split across two sent passages is not one passage's fact.
    const bake: QuestionOutcome = { questionId: 'bake', repeat: 0, retrieved: chunks('c3', 'c4'), k: 3, retrieveMs: 1, sent: { texts: [CORPUS.c3, CORPUS.c4], tokens: 30 } };
    expect(scoreQuestion(Q('bake'), bake).retrieval).toMatchObject({ factSent: false });
  });

  it('aggregates fact sent over answerable questions and the median source tokens', () => {
    const sent = (id: string, texts: string[], tokens: number): QuestionOutcome => ({ questionId: id, repeat: 0, retrieved: [], k: 3, retrieveMs: 1, sent: { texts, tokens } });
    const m = aggregate(
      scoreOutcomes(QUESTIONS, [sent('keys', [CORPUS.c1], 100), sent('bake', [CORPUS.c3], 300), sent('tomato', [CORPUS.c5, CORPUS.c6], 200), sent('vault', [CORPUS.c1], 999)]),
    );
    expect(m.factSent).toBe(2 / 3);
    // Unanswerable questions do not count: 100, 200, 300 → 200.
    expect(m.sourceTokensP50).toBe(200);
  });

  it('leaves a question whose search did not run out of every retrieval rate, hit@n and fact sent alike', () => {
    const ran: QuestionOutcome = { questionId: 'keys', repeat: 0, retrieved: chunks('c1'), k: 3, retrieveMs: 1, sent: { texts: [CORPUS.c1], tokens: 40 } };
    const failed: QuestionOutcome = { questionId: 'tomato', repeat: 0, retrieved: [], k: 3, retrieveMs: null, searchFailed: true };
    expect(scoreQuestion(Q('tomato'), failed).retrieval).toBeNull();
    // One search ran and found and sent its fact; the other measured nothing: 100% on both, not hit@k 50% beside fact sent 100%.
    const m = aggregate(scoreOutcomes(QUESTIONS, [ran, failed]));
    expect([m.hit1, m.hitK, m.mrr, m.factSent]).toEqual([1, 1, 1, 1]);
  });

  it('is null for questions without a chunkFact and for unanswerable ones', () => {
    expect(scoreQuestion(Q('beta'), outcome(ROWS[6]!)).retrieval).toBeNull();
    expect(scoreQuestion(Q('vault'), outcome(ROWS[8]!)).retrieval).toBeNull();
  });

  it('refuses to score an outcome against another question', () => {
    expect(() => scoreQuestion(Q('keys'), outcome(ROWS[2]!))).toThrow('outcome for "bake" scored against question "keys"');
  });
});

describe('scoreQuestion: answer', () => {
  it('scores facts and citations of one answer', () => {
    const s = scoreQuestion(Q('tomato'), outcome(ROWS[4]!));
    expect(s.answer).toMatchObject({
      answerHasFact: true,
      citationValid: 0.5,
      supportedCitationRate: 0.5,
      citesFact: true,
      refused: false,
    });
  });

  it('matches answerRegex across a line break and in any case', () => {
    expect(scoreQuestion(Q('keys'), outcome(ROWS[1]!)).answer?.answerHasFact).toBe(true);
  });

  it('does not credit citing two chunks that each hold half of the fact', () => {
    expect(scoreQuestion(Q('bake'), outcome(ROWS[2]!)).answer?.citesFact).toBe(false);
  });

  it('gives null citation rates without citations and null fact checks where ineligible', () => {
    const refused = scoreQuestion(Q('vault'), outcome(ROWS[8]!)).answer!;
    expect(refused.citationValid).toBeNull();
    expect(refused.supportedCitationRate).toBeNull();
    expect(refused.answerHasFact).toBeNull();
    expect(refused.citesFact).toBeNull();
    expect(scoreQuestion(Q('beta'), outcome(ROWS[6]!)).answer?.citesFact).toBeNull();
  });

  it('falls back to the retrieved text for a cited chunk missing from citedTexts', () => {
    const o = outcome(ROWS[0]!);
    o.answer!.citedTexts = {};
    expect(scoreQuestion(Q('keys'), o).answer?.citesFact).toBe(true);
  });

  it('is null when no answer was generated', () => {
    expect(scoreQuestion(Q('keys'), outcome(ROWS[0]!, false)).answer).toBeNull();
  });
});

describe('percentileNearestRank', () => {
  const list = [35, 20, 50, 15, 40]; // sorted: 15 20 35 40 50
  it.each([
    [0, 15],
    [5, 15],
    [20, 15],
    [30, 20],
    [40, 20],
    [50, 35],
    [95, 50],
    [100, 50],
  ])('p%d of [15 20 35 40 50] is %d', (p, want) => {
    expect(percentileNearestRank(list, p)).toBe(want);
  });

  it('takes rank ceil(p/100 × n) and never interpolates', () => {
    const oneTo20 = Array.from({ length: 20 }, (_, i) => i + 1);
    expect(percentileNearestRank(oneTo20, 50)).toBe(10);
    expect(percentileNearestRank(oneTo20, 95)).toBe(19);
    expect(percentileNearestRank([1, 2], 50)).toBe(1);
    expect(percentileNearestRank([10, 2, 1], 50)).toBe(2); // numeric, not lexicographic, order
  });

  it('is null for no values and rejects p outside [0, 100]', () => {
    expect(percentileNearestRank([], 50)).toBeNull();
    expect(() => percentileNearestRank([1], 101)).toThrow(RangeError);
    expect(() => percentileNearestRank([1], Number.NaN)).toThrow(RangeError);
  });
});

describe('aggregate', () => {
  const metrics = () => aggregate(scoreOutcomes(QUESTIONS, ROWS.map((r) => outcome(r))));

  it('returns exactly the documented keys', () => {
    expect(Object.keys(metrics()).sort()).toEqual(
      [
        'hit1', 'hit3', 'hit5', 'hitK', 'mrr', 'factSent', 'sourceTokensP50', 'answerHasFact', 'citationValid', 'supportedCitationRate', 'citesFact',
        'refusalAccuracy', 'falseRefusals', 'promptTokens', 'truncations', 'latencyMs', 'tokensPerSecond',
        'changedAcrossRepeats',
      ].sort(),
    );
  });

  it('computes every metric exactly on the crafted set', () => {
    expect(metrics()).toEqual({
      // eligible: keys (RR 1/2), bake (miss), tomato (RR 1), twice each
      hit1: 2 / 6,
      hit3: 4 / 6,
      hit5: 4 / 6,
      hitK: 4 / 6,
      mrr: (0.5 + 0.5 + 0 + 0 + 1 + 1) / 6,
      // no outcome says what was sent
      factSent: null,
      sourceTokensP50: null,
      // answerable with answerRegex: 8 samples, tomato repeat 1 refused
      answerHasFact: 7 / 8,
      // answers with citations: keys×2 (1), bake×2 (1), tomato r0 (0.5), beta×2 (1), wifi×2 (1)
      citationValid: 8.5 / 9,
      // keys×2 (1), bake×2 (0.5), tomato r0 (0.5), beta×2 (0), wifi×2 (0)
      supportedCitationRate: 3.5 / 9,
      // keys×2 yes, bake×2 no (fact split), tomato r0 yes, r1 no
      citesFact: 3 / 6,
      // unanswerable: vault refused twice, wifi answered twice
      refusalAccuracy: 2 / 4,
      // answerable samples: 8, one refused (tomato r1)
      falseRefusals: 1 / 8,
      promptTokens: { estimated: 10200 / 12, reported: 6730 / 8, exact: 0 },
      truncations: 1,
      latencyMs: {
        // sorted: 6 7 8 9 10 11 12 13 14 15 30 100 → ranks 6 and 12
        retrieve: { p50: 11, p95: 100 },
        // sorted: 0 0 400 700 800 850 900 950 1000 1050 1100 1200 → ranks 6 and 12
        generate: { p50: 850, p95: 1200 },
      },
      tokensPerSecond: 200 / 9,
      // tomato only: keys differs in case/whitespace only
      changedAcrossRepeats: 1,
    });
  });

  it('gives null, not 0, for answer metrics when no chat model ran', () => {
    const m = aggregate(scoreOutcomes(QUESTIONS, ROWS.map((r) => outcome(r, false))));
    expect(m).toEqual({
      hit1: 2 / 6,
      hit3: 4 / 6,
      hit5: 4 / 6,
      hitK: 4 / 6,
      mrr: 3 / 6,
      factSent: null,
      sourceTokensP50: null,
      answerHasFact: null,
      citationValid: null,
      supportedCitationRate: null,
      citesFact: null,
      refusalAccuracy: null,
      falseRefusals: null,
      promptTokens: { estimated: null, reported: null, exact: null },
      truncations: null,
      latencyMs: { retrieve: { p50: 11, p95: 100 }, generate: { p50: null, p95: null } },
      tokensPerSecond: null,
      changedAcrossRepeats: null,
    });
  });

  it('gives 0, not null, when eligible questions all fail', () => {
    const rows = ROWS.filter((r) => r.id === 'bake' || r.id === 'wifi');
    const m = aggregate(scoreOutcomes(QUESTIONS, rows.map((r) => outcome(r))));
    expect(m.hit1).toBe(0);
    expect(m.hitK).toBe(0);
    expect(m.mrr).toBe(0);
    expect(m.citesFact).toBe(0);
    expect(m.refusalAccuracy).toBe(0);
    expect(m.falseRefusals).toBe(0);
    expect(m.truncations).toBe(1);
    expect(m.changedAcrossRepeats).toBe(0);
  });

  it('reports the share of prompts counted exactly', () => {
    const rows = ROWS.filter((r) => r.repeat === 0 && r.est !== null);
    const outcomes = rows.map((r, i) => {
      const o = outcome(r);
      return { ...o, answer: { ...o.answer!, exactTokens: i % 2 === 0 } };
    });
    const m = aggregate(scoreOutcomes(QUESTIONS, outcomes));
    expect(m.promptTokens.exact).toBe(Math.ceil(rows.length / 2) / rows.length);
  });

  it('gives null where nothing was eligible even though answers exist', () => {
    const rows = ROWS.filter((r) => r.id === 'vault' && r.repeat === 0);
    const m = aggregate(scoreOutcomes(QUESTIONS, rows.map((r) => outcome(r))));
    expect(m.hit1).toBeNull();
    expect(m.mrr).toBeNull();
    expect(m.answerHasFact).toBeNull();
    expect(m.citationValid).toBeNull();
    expect(m.falseRefusals).toBeNull();
    expect(m.refusalAccuracy).toBe(1);
    expect(m.promptTokens).toEqual({ estimated: 500, reported: null, exact: 0 });
    expect(m.truncations).toBe(0);
    // a single repeat cannot show a change
    expect(m.changedAcrossRepeats).toBeNull();
  });

  it('rejects a sample scored twice and an unknown question', () => {
    const twice = [ROWS[0]!, ROWS[0]!].map((r) => outcome(r));
    expect(() => aggregate(scoreOutcomes(QUESTIONS, twice))).toThrow('question "keys" repeat 0 scored twice');
    expect(() => scoreOutcomes(QUESTIONS.slice(1), [outcome(ROWS[0]!)])).toThrow('outcome for unknown question "keys"');
  });

  it('is all null for no samples', () => {
    const m = aggregate([]);
    expect(m.hit1).toBeNull();
    expect(m.latencyMs.retrieve).toEqual({ p50: null, p95: null });
    expect(m.truncations).toBeNull();
  });
});

describe('containsFact with compatibility characters', () => {
  it('finds a plainly written fact in a note with compatibility characters (NFKC; with NFC it did not)', () => {
    expect(containsFact('Keys rotate every ９０ days.', 'every 90 days')).toBe(true);
    expect(containsFact('Open the ﬁle menu.', 'file menu')).toBe(true);
    expect(containsFact('Keys rotate every 90 days.', 'every 30 days')).toBe(false);
  });
});
