import { describe, expect, it } from 'vitest';
import { scanJson } from './json-lines';

const VALID = [
  '{ "questions": [',
  '  { "id": "a", "question": "Tab\\t, quote \\" and \\u00e9?", "expect": { "answerable": false } },',
  '  { "id": "b", "question": "Q?", "n": [-1.5e3, 0, 2E+2, true, null, {}, []], "expect": { "chunkFact": "f", "answerable": true } }',
  '] }',
].join('\n');

describe('scanJson', () => {
  it('gives the line each question entry starts on, in a list or under "questions"', () => {
    expect(scanJson(VALID)).toEqual({ ok: true, entryLines: [2, 3] });
    expect(scanJson('[\n\n  {"id": "x"},\n  {"id": "y"}]')).toEqual({ ok: true, entryLines: [3, 4] });
  });

  it('names what follows the JSON, and a bad escape where it starts', () => {
    expect(scanJson('[]\n]')).toEqual({ ok: false, error: { line: 2, column: 1, expected: 'nothing after the end of the JSON' } });
    expect(scanJson('["a\\x"]')).toMatchObject({ ok: false, error: { line: 1, column: 4 } });
  });

  it('agrees with JSON.parse on which texts are JSON (seeded one-character edits of a valid set)', () => {
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const alphabet = '{}[]:,"\\ \n0123456789.-+eEtrufalsn\u00e9\t';
    for (let round = 0; round < 3000; round++) {
      const at = random(VALID.length);
      const kind = random(3);
      const c = alphabet[random(alphabet.length)]!;
      const text = kind === 0 ? VALID.slice(0, at) + VALID.slice(at + 1) : kind === 1 ? VALID.slice(0, at) + c + VALID.slice(at) : VALID.slice(0, at) + c + VALID.slice(at + 1);
      let parses = true;
      try {
        JSON.parse(text);
      } catch {
        parses = false;
      }
      expect(scanJson(text).ok, JSON.stringify(text)).toBe(parses);
    }
  });
});
