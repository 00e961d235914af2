import { describe, expect, it } from 'vitest';
import { METRICS_VERSION, type EvalConfigResult, type EvalReport } from '../../../shared/eval';
import { aggregate } from '../../core/eval/metrics';
import { evalTable } from './eval-table';

const config = (over: Partial<EvalConfigResult>): EvalConfigResult => ({
  chatModel: 'llama3.2:latest', embedModel: 'embeddinggemma:latest', chunker: 'heading:256', k: 5, mode: 'hybrid', fusion: 'rrf:60', metrics: aggregate([]), errors: 0, ...over,
});

/** A report as the Evaluate form saved them before model names lost ":latest", with a cutoff other than the default. */
const REPORT: EvalReport = {
  metricsVersion: METRICS_VERSION,
  corpus: { documents: 4, fingerprint: 'f00dfacecafe1234567890abcdef' },
  questions: { answerable: 1, unanswerable: 0 },
  configs: [config({}), config({ mode: 'dense' })],
  perQuestion: [],
  run: {
    quire: '0.1.0', ollama: '0.12.6', models: {}, at: '2026-03-01T10:00:00Z', ms: 65_000,
    answerSettings: { numCtxCap: 8192, numPredict: 512, temperature: 0, seed: 42, maxDistance: 1.1 },
    grid: { chatModels: ['llama3.2:latest'], embedModels: ['embeddinggemma:latest'], chunkers: ['heading:256'], ks: [5], modes: ['hybrid', 'dense'], fusions: ['rrf:60'], repeats: 1 },
    docs: '/home/me/notes',
    questionSet: { name: 'q.json', sha256: 'aa', questions: [] },
  },
  warnings: [],
};

describe('evalTable', () => {
  it('says under the retrieval table what hit@n, MRR and fact sent measure, with the report’s distance cutoff', () => {
    const text = evalTable(REPORT);
    const lines = text.split('\n');
    const terms = lines.findIndex((l) => l.startsWith('hit@n: '));
    expect(terms).toBeGreaterThan(lines.findIndex((l) => l.startsWith('Retrieval ')));
    expect(terms).toBeLessThan(lines.findIndex((l) => l.startsWith('Answers ')));
    expect(text).toMatch(/^MRR: 1 \/ rank of the first passage holding it/m);
    // The cutoff is read from the report, not assumed.
    expect(text).toMatch(/never a meaning match farther than 1\.1\n\(L2 distance\), so a dense row can find a fact it does not send/);
    for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(100);
  });

  it('names models as the Evaluate view does, without ":latest"', () => {
    const text = evalTable(REPORT);
    expect(text).toMatch(/^1 +llama3\.2 +embeddinggemma +heading:256/m);
    expect(text).not.toContain(':latest');
  });

  it('says which configurations lead each headline metric and by how much, among those where nothing failed', () => {
    const m = (hit1: number, hitK: number) => ({ ...aggregate([]), hit1, hitK, mrr: 0.5, factSent: hitK });
    const report: EvalReport = {
      ...REPORT,
      configs: [
        config({ chatModel: null, mode: 'lexical', metrics: m(0.5, 0.8) }),
        config({ chatModel: null, mode: 'dense', metrics: m(0.7, 0.9) }),
        // The highest of all, but two of its questions failed: not comparable, never "best".
        config({ chatModel: null, mode: 'hybrid', metrics: m(0.9, 1), errors: 2 }),
        config({ chatModel: null, mode: 'hybrid', fusion: 'weighted:0.5', metrics: m(0.7, 0.6) }),
      ],
    };
    const best = evalTable(report).split('\n').filter((l) => l.startsWith('Best:') || l.startsWith('  '));
    // MRR is the same everywhere, so nothing leads it and it is not named.
    expect(best).toEqual(['Best: hit@1 70% #2 #4 (next 50%); hit@k 90% #2 (next 80%); fact sent 90% #2 (next 80%)']);
  });

  describe('the command under a Best line', () => {
    const m = (hit1: number) => ({ ...aggregate([]), hit1, hitK: 0.9, mrr: 0.5, factSent: 0.8 });
    const CURRENT = { embedModel: 'embeddinggemma', chatModel: 'llama3.2', chunkTokens: 256, k: 5, searchMode: 'hybrid' as const, fusion: 'rrf:60' };
    const keywordWins: EvalReport = {
      ...REPORT,
      configs: [
        config({ chatModel: null, mode: 'hybrid', metrics: m(0.39) }),
        config({ chatModel: null, mode: 'lexical', metrics: m(0.7) }),
        config({ chatModel: null, mode: 'dense', metrics: m(0.2) }),
      ],
    };
    const after = (text: string) => text.split('\n').slice(text.split('\n').findIndex((l) => l.startsWith('Best:')) + 1);

    it('applies the leader, only the settings that differ from the current ones, as the CLI was started', () => {
      const lines = after(evalTable(keywordWins, { current: CURRENT, program: 'quire' }));
      expect(lines.slice(0, 2)).toEqual(['To use #2 (first by hit@1, then hit@k, MRR, fact sent):', '  quire settings set searchMode lexical']);
      const viaNpm = after(evalTable(keywordWins, { current: { ...CURRENT, k: 3, fusion: 'weighted:0.3' }, program: 'npm run quire --' }));
      // k differs; the fusion does not matter to keyword search, so it is left alone.
      expect(viaNpm[1]).toBe('  npm run quire -- settings set k 5 searchMode lexical');
    });

    it('says when the settings already match the leader, and what of it cannot be a setting', () => {
      expect(after(evalTable(keywordWins, { current: { ...CURRENT, searchMode: 'lexical' }, program: 'quire' }))[0]).toBe('#2 (first by hit@1, then hit@k, MRR, fact sent): your settings already match it.');
      const fixed: EvalReport = { ...keywordWins, configs: keywordWins.configs.map((c) => ({ ...c, chunker: 'fixed:128/25' })) };
      const lines = evalTable(fixed, { current: CURRENT, program: 'quire' }).split('\n');
      expect(lines.join('\n')).toContain(
        [
          '  quire settings set searchMode lexical',
          '  Your embedding model (embeddinggemma) is left as it is: keyword search uses none.',
          '  The chunker fixed:128/25 cannot be applied as a setting: the app cuts documents by heading, up to',
          '  a chunk size in tokens. The rest is applied.',
        ].join('\n'),
      );
      for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(100);
    });

    it('quotes a value a shell would split', () => {
      const odd: EvalReport = { ...keywordWins, configs: [config({ chatModel: null, mode: 'dense', embedModel: 'my model', metrics: m(0.9) }), config({ chatModel: null, mode: 'lexical', metrics: m(0.1) })] };
      expect(evalTable(odd, { current: CURRENT, program: 'quire' })).toContain("  quire settings set embedModel 'my model' searchMode dense");
    });

    it('is not printed without the current settings, nor where no Best line is', () => {
      expect(evalTable(keywordWins)).not.toContain('settings set');
      const tie: EvalReport = { ...keywordWins, configs: keywordWins.configs.map((c) => ({ ...c, metrics: m(0.5) })) };
      expect(evalTable(tie, { current: CURRENT, program: 'quire' })).not.toContain('settings set');
    });
  });
});
