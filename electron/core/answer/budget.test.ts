import { describe, expect, it } from 'vitest';
import { QuireError } from '../../../shared/errors';
import { TEMPLATES } from '../../../test/support/ollama-standin/templates';
import { standinVocabulary } from '../../../test/support/ollama-standin/vocabularies';
import { exactCounter } from '../tokens/model-tokens';
import { createTokenizer } from '../tokens/tokenizer';
import { vocabularyFromModelInfo } from '../tokens/vocabulary';
import { countMessages, fitPrompt, FULL_WINDOW_MARGIN, lostSources, narrower, settleBudget, sourcesBlockCounter, TRUNCATION_THRESHOLD } from './budget';
import { countTokens } from '../text/tokenizer';
import fs from 'node:fs';
import path from 'node:path';
import { formatSource, promptParts, type PromptSource } from './prompt';

const source = (i: number, words = 60): PromptSource => ({
  chunkId: `aaaaaaaaaaaa#${i}`,
  path: `notes/n${i}.md`,
  heading: `Note ${i}`,
  lines: [1, 10],
  text: `Passage ${i}: ${'the quick brown fox jumps over the lazy dog '.repeat(words / 9)}`.trim(),
  flags: [],
});
const candidates = Array.from({ length: 10 }, (_, i) => source(i));
const base = { question: 'What does the fox do?', candidates, history: [], maxK: 6, numCtx: 8192, reserve: 512, ratio: 1 };

describe('fitPrompt', () => {
  it('records the passages asked for, found and sent, and what held any back', () => {
    expect(fitPrompt(base).budget.passages).toEqual({ asked: 6, found: 6, heldBy: null });
    // Fewer found than asked: nothing was held back.
    expect(fitPrompt({ ...base, candidates: candidates.slice(0, 2) }).budget.passages).toEqual({ asked: 6, found: 2, heldBy: null });
    const three = fitPrompt({ ...base, maxK: 3 }).budget.breakdown.sources;
    const capped = fitPrompt({ ...base, maxSourceTokens: three });
    expect([capped.budget.k, capped.budget.passages]).toEqual([3, { asked: 6, found: 6, heldBy: 'source-budget' }]);
    // A window with room for two passages besides the reserve: the window held the rest back.
    const two = fitPrompt({ ...base, maxK: 2 }).budget.estimated;
    const narrow = fitPrompt({ ...base, numCtx: two + base.reserve + 5 });
    expect([narrow.budget.k, narrow.budget.passages]).toEqual([2, { asked: 6, found: 6, heldBy: 'window' }]);
  });

  it('keeps the sources within maxSourceTokens, in rank order, but always sends one that fits num_ctx', () => {
    const one = fitPrompt({ ...base, maxK: 1 }).budget.breakdown.sources;
    const three = fitPrompt({ ...base, maxK: 3 }).budget.breakdown.sources;
    const capped = fitPrompt({ ...base, maxSourceTokens: three });
    expect(capped.budget.k).toBe(3);
    expect(capped.budget.breakdown.sources).toBe(three);
    expect(capped.sources.map((s) => s.chunkId)).toEqual(candidates.slice(0, 3).map((c) => c.chunkId));
    expect(fitPrompt({ ...base, maxSourceTokens: three - 1 }).budget.k).toBe(2);
    // Smaller than any one source: the best one still goes.
    const tiny = fitPrompt({ ...base, maxSourceTokens: 10 });
    expect(tiny.budget.k).toBe(1);
    expect(tiny.budget.breakdown.sources).toBe(one);
  });

  it('sends maxK sources when they fit, and the breakdown adds up to the prompt it built', () => {
    const f = fitPrompt(base);
    expect(f.budget.k).toBe(6);
    const b = f.budget.breakdown;
    expect(b.system + b.history + b.sources + b.question).toBe(f.budget.raw);
    // The parts are counted separately; the whole prompt counted at once agrees within a few tokens.
    expect(Math.abs(countMessages(f.messages) - f.budget.raw)).toBeLessThanOrEqual(4);
    expect(f.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(f.messages[1]!.content).toMatch(/^Sources:\n\n<source id="aaaaaaaaaaaa#0" path="notes\/n0.md" heading="Note 0" lines="1-10">/);
    expect(f.messages[1]!.content.trimEnd().endsWith('Question: What does the fox do?')).toBe(true);
  });

  it('shrinks k until the calibrated estimate plus the reserve fits num_ctx, and never overflows', () => {
    for (const numCtx of [850, 950, 1050, 1150]) {
      const f = fitPrompt({ ...base, numCtx });
      expect(f.budget.k).toBeLessThan(6);
      expect(f.budget.estimated + f.budget.breakdown.reserve).toBeLessThanOrEqual(numCtx);
      // One more source would not have fitted.
      if (f.budget.k < candidates.length) {
        const more = fitPrompt({ ...base, numCtx: numCtx * 10, maxK: f.budget.k + 1 });
        expect(more.budget.estimated + 512).toBeGreaterThan(numCtx);
      }
    }
  });

  it('applies the calibration ratio before deciding what fits', () => {
    const plain = fitPrompt({ ...base, numCtx: 1500 });
    const inflated = fitPrompt({ ...base, numCtx: 1500, ratio: 1.5 });
    expect(inflated.budget.k).toBeLessThan(plain.budget.k);
    expect(inflated.budget.estimated).toBe(Math.ceil(inflated.budget.raw * 1.5));
  });

  it('keeps the newest history turns that fit and drops the oldest first', () => {
    const history = Array.from({ length: 8 }, (_, i) => ({ question: `Question ${i} ${'word '.repeat(40)}`, answer: `Answer ${i} ${'word '.repeat(40)}` }));
    const f = fitPrompt({ ...base, history, numCtx: 1300, maxK: 2 });
    expect(f.history.length).toBeGreaterThan(0);
    expect(f.history.length).toBeLessThan(8);
    expect(f.history.at(-1)!.question.startsWith('Question 7')).toBe(true);
    expect(f.history[0]!.question.startsWith(`Question ${8 - f.history.length}`)).toBe(true);
    expect(f.budget.breakdown.history).toBeGreaterThan(0);
    expect(f.budget.estimated + f.budget.breakdown.reserve).toBeLessThanOrEqual(1300);
  });

  // A passage as search returns it: the hit between its neighbours, each chunk several lines.
  const passage = (i: number): PromptSource => {
    const chunk = (name: string) => Array.from({ length: 6 }, (_, l) => `${name} line ${l}: the quick brown fox jumps over the lazy dog`).join('\n');
    const [before, hit, after] = [chunk(`before${i}`), chunk(`hit${i}`), chunk(`after${i}`)];
    const start = before.length + 1;
    return {
      ...source(i),
      chunkIds: [`bbbbbbbbbbbb#${i}`, `aaaaaaaaaaaa#${i}`, `cccccccccccc#${i}`],
      lines: [1, 18],
      text: [before, hit, after].join('\n'),
      hit: { lines: [7, 12], start, end: start + hit.length },
    };
  };
  const sourcesOf = (f: ReturnType<typeof fitPrompt>) => f.sources;

  it('sends a passage that no longer fits whole with less around its hit, never over the cap', () => {
    const wide = [passage(0), passage(1), passage(2)];
    const whole = fitPrompt({ ...base, candidates: wide, maxK: 1 }).budget.breakdown.sources;
    // Room for the first passage and a little more: the second goes as its hit and one neighbour, or its hit alone.
    const cap = Math.round(whole * 1.6);
    const f = fitPrompt({ ...base, candidates: wide, maxSourceTokens: cap });
    expect(f.budget.breakdown.sources).toBeLessThanOrEqual(cap);
    const [first, second] = sourcesOf(f);
    expect(first!.text).toBe(wide[0]!.text);
    expect(second!.chunkId).toBe('aaaaaaaaaaaa#1');
    expect(second!.text).toContain('hit1 line 0');
    expect(second!.text).toContain('hit1 line 5');
    expect(second!.text.length).toBeLessThan(wide[1]!.text.length);
    expect(second!.chunkIds).toContain('aaaaaaaaaaaa#1');
    expect(second!.chunkIds!.length).toBeLessThan(3);
    // Every chunk it names is one whose text it holds.
    if (!second!.text.includes('before1')) expect(second!.chunkIds).not.toContain('bbbbbbbbbbbb#1');
    if (!second!.text.includes('after1')) expect(second!.chunkIds).not.toContain('cccccccccccc#1');
  });

  it('fills what is left of the cap with the opening lines of the next hit, but not with a scrap', () => {
    const wide = [passage(0), passage(1)];
    const whole = fitPrompt({ ...base, candidates: wide, maxK: 1 }).budget.breakdown.sources;
    const hitOnly = fitPrompt({ ...base, candidates: [{ ...passage(1), text: passage(1).text.slice(passage(1).hit!.start, passage(1).hit!.end), chunkIds: ['aaaaaaaaaaaa#1'], hit: undefined }], maxK: 1 }).budget.breakdown.sources;
    const roomy = fitPrompt({ ...base, candidates: wide, maxSourceTokens: whole + Math.round(hitOnly * 0.7) });
    expect(roomy.sources).toHaveLength(2);
    expect(roomy.budget.breakdown.sources).toBeLessThanOrEqual(whole + Math.round(hitOnly * 0.7));
    const cutText = roomy.sources[1]!.text;
    expect(cutText.startsWith('hit1 line 0')).toBe(true);
    expect(cutText).not.toContain('hit1 line 5');
    expect(cutText.split('\n').length).toBeGreaterThanOrEqual(3);
    // Room for a line or two: nothing rather than a scrap.
    const scrap = fitPrompt({ ...base, candidates: wide, maxSourceTokens: whole + 40 });
    expect(scrap.sources).toHaveLength(1);
  });

  it('narrows a PDF passage\'s pages with its lines, and names them in the source block', () => {
    const pdf: PromptSource = { ...passage(1), path: 'guide.pdf', pages: [2, 5], hit: { ...passage(1).hit!, pages: [3, 4] } };
    expect(narrower(pdf).map((f) => f.pages)).toEqual([[2, 4], [3, 5], [3, 4]]);
    expect(formatSource(pdf)).toMatch(/^<source id="aaaaaaaaaaaa#1" path="guide.pdf" heading="[^"]*" lines="\d+-\d+" pages="2-5">/);
    expect(formatSource({ ...pdf, pages: [7, 7] })).toMatch(/ pages="7">/);
    expect(formatSource(passage(1))).not.toMatch(/pages=/);
  });

  // A short section sent whole (retrieve/passages.ts): more chunks than the hit and two neighbours,
  // each with its place in the text, its lines and pages, as search returns them.
  const section = (n: number, at: number, words: readonly string[] = []): PromptSource => {
    const chunks = Array.from({ length: n }, (_, c) => Array.from({ length: 6 }, (_, l) => `${c === at ? 'hit' : `c${c}`} line ${l}: the quick brown fox jumps over the lazy dog ${words[c] ?? ''}`.trimEnd()).join('\n'));
    let start = 0;
    const chunkSpans = chunks.map((t, c) => {
      const sp = { start, end: start + t.length, lines: [1 + 6 * c, 6 + 6 * c] as [number, number], pages: [c + 1, c + 1] as [number, number] };
      start += t.length + 1;
      return sp;
    });
    return {
      ...source(0),
      chunkId: `aaaaaaaaaaaa#${at}`,
      chunkIds: chunks.map((_, c) => `aaaaaaaaaaaa#${c}`),
      lines: [1, 6 * n],
      pages: [1, n],
      text: chunks.join('\n'),
      hit: { lines: chunkSpans[at]!.lines, pages: chunkSpans[at]!.pages, start: chunkSpans[at]!.start, end: chunkSpans[at]!.end },
      chunkSpans,
    };
  };

  it('narrows a passage around its hit through every size down to the hit alone; every form holds the hit and says its chunks, lines and pages', () => {
    for (const [n, at] of [[5, 2], [4, 0], [6, 5], [3, 1]] as const) {
      const s = section(n, at);
      const forms = narrower(s);
      expect(forms.length).toBeGreaterThan(0);
      for (const f of forms) {
        expect(f.text.slice(f.hit!.start, f.hit!.end)).toBe(s.text.slice(s.hit!.start, s.hit!.end));
        const ordinals = f.chunkIds!.map((id) => Number(id.split('#')[1]));
        expect(ordinals).toContain(at);
        // Contiguous, and the text, lines and pages are exactly those chunks'.
        expect(ordinals).toEqual(ordinals.map((_, i) => ordinals[0]! + i));
        expect(f.text).toBe(s.text.split('\n').slice(6 * ordinals[0]!, 6 * (ordinals.at(-1)! + 1)).join('\n'));
        expect(f.lines).toEqual([1 + 6 * ordinals[0]!, 6 * (ordinals.at(-1)! + 1)]);
        expect(f.pages).toEqual([ordinals[0]! + 1, ordinals.at(-1)! + 1]);
      }
      const sizes = forms.map((f) => f.chunkIds!.length);
      expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
      expect(sizes.at(-1)).toBe(1);
      // The hit with one neighbour is among the forms whenever the section has more than two chunks.
      expect(sizes).toContain(2);
    }
    // Largest first, every size between the whole and the hit alone; of equal size, the hit grown
    // on both sides (before first) before a run that keeps one whole side.
    expect(narrower(section(7, 3)).map((f) => f.chunkIds!.map((id) => Number(id.split('#')[1])))).toEqual([
      [0, 1, 2, 3, 4, 5],
      [1, 2, 3, 4, 5],
      [1, 2, 3, 4],
      [0, 1, 2, 3],
      [3, 4, 5, 6],
      [2, 3, 4],
      [2, 3],
      [3, 4],
      [3],
    ]);
    expect(narrower(section(5, 1)).map((f) => f.chunkIds!.map((id) => Number(id.split('#')[1])))).toEqual([[0, 1, 2, 3], [1, 2, 3, 4], [0, 1, 2], [0, 1], [1, 2], [1]]);
  });

  it('with the question, narrows by leaving out the least relevant end first, and never ends on a chunk that holds none of its words', () => {
    const ordinals = (forms: PromptSource[]) => forms.map((f) => f.chunkIds!.map((id) => Number(id.split('#')[1])));
    // Each chunk's relevance as given, by the chunk's label (c0, c1, …; the hit's is `at`).
    const given = (values: readonly number[], at: number) => (text: string) => values[text.startsWith('hit') ? at : Number(/^c(\d+)/.exec(text)![1])]!;
    // Chunks 0 and 4 hold none of the question's words; 1 shares more of them than 5, 5 more than 3.
    const s = section(6, 2);
    const relevance = given([0, 3, 5, 1, 0, 2], 2);
    expect(ordinals(narrower(s, relevance))).toEqual([[1, 2, 3, 4, 5], [1, 2, 3], [1, 2], [2]]);
    // Every form still says its chunks' text and lines, and holds the hit.
    for (const f of narrower(s, relevance)) {
      const o = f.chunkIds!.map((id) => Number(id.split('#')[1]));
      expect(f.text).toBe(s.text.split('\n').slice(6 * o[0]!, 6 * (o.at(-1)! + 1)).join('\n'));
      expect(f.lines).toEqual([1 + 6 * o[0]!, 6 * (o.at(-1)! + 1)]);
      expect(f.text.slice(f.hit!.start, f.hit!.end)).toBe(s.text.slice(s.hit!.start, s.hit!.end));
    }
    // On a tie, the end farther from the hit goes first; at the same distance, the one after.
    expect(ordinals(narrower(section(5, 1), given([1, 1, 1, 1, 1], 1)))).toEqual([[0, 1, 2, 3], [0, 1, 2], [0, 1], [1]]);
    expect(ordinals(narrower(section(3, 1), given([1, 1, 1], 1)))).toEqual([[0, 1], [1]]);
    // A hit that holds none of the words (found by vectors alone) narrows by size, as without a question.
    expect(ordinals(narrower(s, given([0, 3, 0, 1, 0, 2], 2)))).toEqual(ordinals(narrower(s)));

    // Through fitPrompt, counted from the question's own words: with room for two chunks, the hit
    // with the neighbour after it that speaks of the question's topic, not the one before it, which
    // by size alone comes first.
    const t = section(4, 1, ['', 'kernel modules', 'kernel modules loaded at boot', '']);
    expect(ordinals(narrower(t)).find((o) => o.length === 2)).toEqual([0, 1]);
    const pair = narrower(t).find((f) => ordinals([f])[0]!.join() === '1,2')!;
    const cap = fitPrompt({ ...base, candidates: [pair], maxK: 1 }).budget.breakdown.sources;
    const asked = { ...base, question: 'Which kernel modules are loaded?', candidates: [t], maxK: 1, maxSourceTokens: cap + 5 };
    expect(ordinals(fitPrompt(asked).sources)).toEqual([[1, 2]]);
  });

  it('keeps as much around the hit as the budget has room for, not only three chunks or one side', () => {
    const s = section(7, 3);
    const five = narrower(s).find((f) => f.chunkIds!.length === 5)!;
    const cap = fitPrompt({ ...base, candidates: [five], maxK: 1 }).budget.breakdown.sources;
    const f = fitPrompt({ ...base, candidates: [s], maxK: 1, maxSourceTokens: cap + 5 });
    expect(f.sources[0]!.chunkIds).toEqual(five.chunkIds);
  });

  it('sends a whole section that does not fit as its hit with a neighbour when that fits, not the hit alone', () => {
    const s = section(5, 2);
    const pair = narrower(s).find((f) => f.chunkIds!.length === 2)!;
    const cap = fitPrompt({ ...base, candidates: [pair], maxK: 1 }).budget.breakdown.sources;
    const f = fitPrompt({ ...base, candidates: [s], maxK: 1, maxSourceTokens: cap + 5 });
    expect(f.sources[0]!.chunkIds).toHaveLength(2);
    expect(f.sources[0]!.text).toContain('hit line 0');
  });

  it('refuses to build a prompt that cannot fit one source', () => {
    let error: unknown;
    try {
      fitPrompt({ ...base, candidates: [source(0, 2000)], numCtx: 1024 });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(QuireError);
    expect((error as QuireError).code).toBe('CONTEXT_TOO_SMALL');
    expect((error as QuireError).message).toMatch(/num_ctx is 1024/);
  });
});

describe('settleBudget', () => {
  it('suspects truncation only below the threshold share of the estimate', () => {
    const f = fitPrompt(base).budget;
    expect(settleBudget(f, f.estimated).truncationSuspected).toBe(false);
    expect(settleBudget(f, Math.ceil(f.estimated * TRUNCATION_THRESHOLD)).truncationSuspected).toBe(false);
    expect(settleBudget(f, Math.floor(f.estimated * TRUNCATION_THRESHOLD) - 1).truncationSuspected).toBe(true);
    expect(settleBudget(f, null)).toEqual(f);
  });

  it('suspects truncation when the reported prompt filled the whole window', () => {
    const f = fitPrompt({ ...base, numCtx: 1200 }).budget;
    expect(settleBudget(f, 1200 - FULL_WINDOW_MARGIN).truncationSuspected).toBe(true);
    expect(settleBudget(f, f.estimated + 20).truncationSuspected).toBe(false);
  });
});

describe('settleBudget with an exact count', () => {
  // Counted with Qwen's vocabulary and ChatML: 8192 tokens of window, a prompt well inside it.
  const exact = (() => {
    const v = vocabularyFromModelInfo(standinVocabulary('qwen2').modelInfo);
    if (!v.ok) throw new Error(v.reason);
    return exactCounter(createTokenizer(v.vocabulary), 'chatml');
  })();
  const f = fitPrompt({ ...base, exact, numCtx: 8192 }).budget;

  it('keeps the label when Ollama reads what was counted', () => {
    expect(f.estimated).toBeLessThan(8192 - 512);
    expect(settleBudget(f, f.estimated)).toMatchObject({ exact: true, truncationSuspected: false, reported: f.estimated });
  });

  it('drops to approximate, claiming no cut, when Ollama reads fewer tokens of a prompt that fit its window', () => {
    for (const reported of [f.estimated - 1, f.estimated - 40, Math.floor(f.estimated / 2)]) {
      const s = settleBudget(f, reported);
      expect(s).toMatchObject({ exact: false, truncationSuspected: false, lostSources: [], reported });
    }
  });

  it('drops to approximate when Ollama reads more than was counted', () => {
    expect(settleBudget(f, f.estimated + 3)).toMatchObject({ exact: false, truncationSuspected: false });
  });

  it('calls a shortfall a cut only when the count was over the window Ollama ran it in, and Ollama\'s is within it', () => {
    const window = f.estimated - 100;
    expect(settleBudget(f, window - 10, window)).toMatchObject({ exact: true, truncationSuspected: true });
    // More than the window holds: not what a cut leaves, so the count was wrong.
    expect(settleBudget(f, window + 10, window)).toMatchObject({ exact: false });
    // Over the window and more than counted: wrong too.
    expect(settleBudget(f, f.estimated + 1, window)).toMatchObject({ exact: false });
  });

  it('a contradicted count that filled the window is still suspected of a cut, approximately', () => {
    const small = { ...f, numCtx: f.estimated + 20 };
    expect(settleBudget(small, small.numCtx - 2)).toMatchObject({ exact: false, truncationSuspected: true, lostSources: [] });
  });
});

describe('fitPrompt with the chat model\'s own tokenizer and template', () => {
  // Qwen's vocabulary and ChatML, built from the GGUF fields the stand-in serves.
  const exact = (() => {
    const v = vocabularyFromModelInfo(standinVocabulary('qwen2').modelInfo);
    if (!v.ok) throw new Error(v.reason);
    return exactCounter(createTokenizer(v.vocabulary), 'chatml');
  })();
  const reference = (messages: readonly { role: string; content: string }[]) => standinVocabulary('qwen2').encode(TEMPLATES.qwen2.render(messages)).length;

  it('estimates exactly what the reference tokenizer counts for the prompt it built, and says it is exact', () => {
    const f = fitPrompt({ ...base, exact });
    expect(f.budget.exact).toBe(true);
    expect(f.budget.ratio).toBe(1);
    expect(f.budget.estimated).toBe(reference(f.messages));
    const b = f.budget.breakdown;
    expect(b.system + b.history + b.sources + b.question).toBe(f.budget.estimated);
  });

  it('fits k to num_ctx by the exact count, ignoring any calibration ratio', () => {
    for (const numCtx of [900, 1100, 1400]) {
      const f = fitPrompt({ ...base, numCtx, exact, ratio: 3 });
      expect(f.budget.estimated + 512).toBeLessThanOrEqual(numCtx);
      const more = fitPrompt({ ...base, numCtx: 100_000, maxK: f.budget.k + 1, exact });
      if (f.budget.k < 6) expect(more.budget.estimated + 512).toBeGreaterThan(numCtx);
    }
  });

  it('names the sources a cut from the front took, first ones first, and none when history covered it', () => {
    const f = fitPrompt({ ...base, exact, maxK: 4 });
    expect(f.sources).toHaveLength(4);
    expect(lostSources(exact, f.messages, f.sources, 0)).toEqual([]);
    // The system message alone: no source lost.
    const systemOnly = exact.count([f.messages[0]!]) - 5;
    expect(lostSources(exact, f.messages, f.sources, systemOnly)).toEqual([]);
    const through2 = exact.text(exact.render(f.messages).split('<source id="aaaaaaaaaaaa#2"')[0]!) + 3;
    expect(lostSources(exact, f.messages, f.sources, through2)).toEqual([1, 2, 3]);
  });
});

describe('sourcesBlockCounter', () => {
  it('counts the sources block exactly as counting it whole does, for any set of sources in any order', () => {
    // Texts that end and begin every which way: code, markup, a closing >, trailing spaces and
    // newlines, CJK, emoji, a note quoting a source tag, and the question sets' own notes.
    const notes = path.join(import.meta.dirname, '../../../test/support');
    const real = fs
      .readdirSync(notes)
      .filter((f) => f.endsWith('.ts'))
      .slice(0, 6)
      .map((f) => fs.readFileSync(path.join(notes, f), 'utf8').slice(0, 1500));
    const texts = [
      ...real,
      'fn main() {\n    println!("{}", x);\n}\n',
      'ends with a tag >',
      'trailing spaces   \n\n\n',
      '   leading spaces and a tab\t',
      '日本語のメモ。改行\n次の行',
      'emoji 🚀🚀 and ZWJ 👩‍💻',
      'a note that quotes </source>\n\n<source id="x"> inside it',
      '>>>',
      '',
    ];
    const sources: PromptSource[] = texts.map((text, i) => ({
      ...source(i),
      text,
      heading: i % 3 === 0 ? 'Héading > with "quotes"' : `Note ${i}`,
      flags: i % 4 === 0 ? ['injection'] : [],
      ...(i % 5 === 0 ? { pages: [2, 3] as [number, number] } : {}),
    }));
    const counter = sourcesBlockCounter();
    let random = 7;
    const next = () => (random = (random * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let t = 0; t < 200; t++) {
      const set = sources.filter(() => next() < 0.4).sort(() => next() - 0.5);
      expect(counter(set), set.map((s) => s.chunkId).join(' ')).toBe(countTokens(promptParts('q', set, []).sourcesBlock));
    }
    expect(counter([])).toBe(countTokens(promptParts('q', [], []).sourcesBlock));
  });
});
