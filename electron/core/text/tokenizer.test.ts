import * as reference from 'gpt-tokenizer/encoding/cl100k_base';
import { describe, expect, it } from 'vitest';
import {
  MAX_PIECE_CHARS,
  charsWithinBytes,
  countTokens,
  decode,
  encode,
  fitPrefix,
  tokenByteLength,
} from './tokenizer';

const asText = { disallowedSpecial: new Set<string>() };

function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

const SAMPLES = [
  '',
  'hello world',
  'Hello, World! How are you?\n\nFine.',
  '  leading and trailing spaces   ',
  'tabs\tand\r\nCRLF\r\n',
  "it's they're we'll I'd",
  'numbers 1234567 3.14159 -42',
  'naïve café — “quotes” and ümlauts',
  '日本語のテキストです。句読点もある。',
  'emoji 😀👍🏽 and flags 🇩🇪',
  '```ts\nconst x = 1;\n```',
  'a'.repeat(5000),
  'ab'.repeat(3000),
  '-'.repeat(1000),
  ' '.repeat(777) + 'x',
];

describe('tokenizer (cl100k_base)', () => {
  it('matches gpt-tokenizer on fixed samples', () => {
    for (const s of SAMPLES) expect(encode(s), JSON.stringify(s.slice(0, 40))).toEqual(reference.encode(s, asText));
  });

  it('matches gpt-tokenizer on random mixtures, including long letter runs', () => {
    const next = rng(42);
    const parts = ['a', 'b', 'th', 'e', ' ', '  ', '\n', '\n\n', '.', ',', '1', '23', 'é', '日本', '😀', '\r', '\t', 'Hello', "'s", '==', '<|endoftext|>'];
    for (let k = 0; k < 400; k++) {
      let s = '';
      const len = Math.floor(next() * 120);
      for (let i = 0; i < len; i++) s += parts[Math.floor(next() * parts.length)];
      expect(encode(s)).toEqual(reference.encode(s, asText));
    }
    for (const len of [50, 300, 2500]) {
      let s = '';
      for (let i = 0; i < len; i++) s += String.fromCharCode(97 + Math.floor(next() * 26));
      expect(encode(s)).toEqual(reference.encode(s, asText));
    }
  });

  it('round-trips through decode', () => {
    for (const s of SAMPLES) expect(decode(encode(s))).toBe(s);
  });

  it('counts what it encodes', () => {
    expect(countTokens('')).toBe(0);
    expect(countTokens('hello world')).toBe(2);
    for (const s of SAMPLES) expect(countTokens(s)).toBe(encode(s).length);
  });

  it('treats special tokens as plain text instead of throwing', () => {
    const s = 'quoted <|endoftext|> marker';
    expect(() => countTokens(s)).not.toThrow();
    expect(countTokens(s)).toBeGreaterThan(countTokens('quoted  marker') + 1);
    expect(decode(encode(s))).toBe(s);
  });

  it('adds up across a "\\n\\n" before non-space text (the chunkers rely on it)', () => {
    const next = rng(7);
    const prefixes = ['Title', 'Guide > Install > Linux', 'Q&A?', 'Notes > 2024-01-02', 'Über > 日本', 'x!'];
    const bodies = ['Body text.', "'s odd start", '123 numbers', '- list item', '# heading', '```code```', '/path/to', '😀 emoji', '"quoted"', 'Ünïcode'];
    for (let k = 0; k < 200; k++) {
      const prefix = `${prefixes[Math.floor(next() * prefixes.length)]}\n\n`;
      const body = bodies[Math.floor(next() * bodies.length)]! + ' more words';
      expect(countTokens(prefix + body)).toBe(countTokens(prefix) + countTokens(body));
    }
  });

  it('handles a pre-token longer than MAX_PIECE_CHARS', () => {
    const s = 'xy'.repeat(MAX_PIECE_CHARS);
    const tokens = encode(s);
    expect(decode(tokens)).toBe(s);
    expect(countTokens(s)).toBe(tokens.length);
  });

  it('measures token bytes and character boundaries', () => {
    expect(tokenByteLength(encode('hello')[0]!)).toBe(5);
    expect(charsWithinBytes('aé😀b', 0, 1)).toBe(1);
    expect(charsWithinBytes('aé😀b', 0, 2)).toBe(1); // é needs two bytes
    expect(charsWithinBytes('aé😀b', 0, 3)).toBe(2);
    expect(charsWithinBytes('aé😀b', 0, 6)).toBe(2); // 😀 needs four, never half a pair
    expect(charsWithinBytes('aé😀b', 0, 7)).toBe(4);
  });

  it('fitPrefix finds a prefix within the budget', () => {
    const text = 'The quick brown fox jumps over the lazy dog. '.repeat(20);
    for (const max of [1, 5, 17, 100]) {
      const fit = fitPrefix(text, max);
      expect(fit.tokens).toBeLessThanOrEqual(max);
      expect(fit.tokens).toBe(countTokens(text.slice(0, fit.chars)));
      expect(countTokens(text.slice(0, fit.chars + 5))).toBeGreaterThan(max - 1);
    }
    expect(fitPrefix('short', 10)).toEqual({ chars: 5, tokens: 1 });
    const emoji = '😀'.repeat(10);
    const fit = fitPrefix(emoji, 4);
    expect(fit.chars % 2).toBe(0);
    expect(fit.tokens).toBeLessThanOrEqual(4);
  });
});
