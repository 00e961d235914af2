// Very large single-line documents: must finish without quadratic time or memory. No timing
// assertions (the machine is shared); the generous timeouts only stop a runaway. 8 MB by default
// (quadratic work on 8 MB would run for hours, so it still shows); QUIRE_LARGE_MB=50 runs the
// import size cap's worth, as before, for a deliberate check.
import { describe, expect, it } from 'vitest';
import { chunkDocument } from './index';
import { chunkViolations } from './invariants';
import type { ChunkInput, ChunkerConfig } from './types';

const SIZE = Number(process.env.QUIRE_LARGE_MB ?? 8) * 1024 * 1024;
const TIMEOUT = 120_000;

function repeatTo(unit: string, size: number): string {
  return unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
}

/** Letters with no period: every pre-token is a fresh 50 MB-long run, nothing to cache. */
function randomLetters(size: number): string {
  const bytes = new Uint8Array(size);
  let s = 2463534242;
  for (let i = 0; i < size; i++) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    bytes[i] = 97 + ((s >>> 0) % 26);
  }
  return Buffer.from(bytes).toString('latin1');
}

const CONFIGS: ChunkerConfig[] = [
  { kind: 'heading', maxTokens: 256 },
  { kind: 'recursive', chunkSize: 1000, overlap: 100 },
  { kind: 'fixed', windowTokens: 256, overlap: 32 },
];

// No chunk can hold more than 256 tokens of at most 128 bytes each, nor more than 1000 chars.
const FEWEST_CHUNKS = Math.floor(SIZE / (256 * 128));

function check(input: ChunkInput, config: ChunkerConfig): number {
  const chunks = chunkDocument(input, config);
  const limits =
    config.kind === 'heading' ? { maxTokens: config.maxTokens } : config.kind === 'recursive' ? { maxChars: config.chunkSize } : {};
  expect(chunkViolations(input, chunks, { ...limits, countEvery: 97 })).toEqual([]);
  if (config.kind === 'fixed') for (const c of chunks) expect(c.tokenCount).toBeLessThanOrEqual(config.windowTokens + 10);
  for (const c of chunks) expect(c.startLine).toBe(1);
  return chunks.length;
}

describe(`${SIZE / 1024 / 1024} MB single line`, () => {
  const words = repeatTo('lorem ipsum dolor sit amet consectetur adipiscing elit ', SIZE);
  const letters = repeatTo('abcdefghijklmnopqrstuvwxyz', SIZE);

  for (const config of CONFIGS) {
    it(`of repeated words, ${config.kind}`, { timeout: TIMEOUT }, () => {
      expect(check({ text: words, title: 'Big', firstLine: 1 }, config)).toBeGreaterThan(FEWEST_CHUNKS);
    });
    it(`without any space, ${config.kind}`, { timeout: TIMEOUT }, () => {
      expect(check({ text: letters, title: 'Big', firstLine: 1 }, config)).toBeGreaterThan(FEWEST_CHUNKS);
    });
  }

  it('of non-repeating letters, heading (every cut is a fresh hard cut)', { timeout: TIMEOUT }, () => {
    const text = randomLetters(SIZE);
    const chunks = chunkDocument({ text, title: 'Big', firstLine: 1 });
    expect(chunks.length).toBeGreaterThan(FEWEST_CHUNKS);
    expect(chunks.map((c) => c.text).join('')).toBe(text);
    expect(chunkViolations({ text, title: 'Big', firstLine: 1 }, chunks, { maxTokens: 256, countEvery: 97 })).toEqual([]);
  });
});
