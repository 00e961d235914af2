import { describe, expect, it } from 'vitest';
import { chunkDocument, formatChunkerSpec, parseChunkerSpec } from './index';
import { DEFAULT_CHUNKER, type ChunkerConfig } from './types';

describe('chunker specs', () => {
  it.each<[string, ChunkerConfig]>([
    ['heading:256', { kind: 'heading', maxTokens: 256 }],
    ['heading', { kind: 'heading', maxTokens: 256 }],
    [' heading:512 ', { kind: 'heading', maxTokens: 512 }],
    ['fixed:128/25', { kind: 'fixed', windowTokens: 128, overlap: 25 }],
    ['fixed:128', { kind: 'fixed', windowTokens: 128, overlap: 0 }],
    ['recursive:1000/100', { kind: 'recursive', chunkSize: 1000, overlap: 100 }],
    ['recursive:1000', { kind: 'recursive', chunkSize: 1000, overlap: 0 }],
  ])('parses %j', (spec, config) => {
    expect(parseChunkerSpec(spec)).toEqual(config);
    expect(parseChunkerSpec(formatChunkerSpec(config))).toEqual(config);
  });

  it.each([
    ['', /expected heading/],
    ['paragraph:100', /unknown chunker "paragraph"/],
    ['Heading:256', /expected heading/],
    ['heading:', /whole number/],
    ['heading:abc', /whole number/],
    ['heading:-5', /whole number/],
    ['heading:2.5', /whole number/],
    ['heading:0', /from 16/],
    ['heading:1e3', /whole number/],
    ['heading:256/10', /takes no overlap/],
    ['fixed', /needs a size/],
    ['fixed:128/128', /overlap must be/],
    ['fixed:128/200', /overlap must be/],
    ['fixed:128/', /whole number/],
    ['fixed:128/1/2', /whole number/],
    ['recursive:10/1', /from 50/],
    ['recursive:1000/1000', /overlap must be/],
  ])('rejects %j', (spec, message) => {
    expect(() => parseChunkerSpec(spec)).toThrow(message);
    expect(() => parseChunkerSpec(spec)).toThrow(/Bad chunker spec/);
  });

  it('formats canonically', () => {
    expect(formatChunkerSpec(DEFAULT_CHUNKER)).toBe('heading:256');
    expect(formatChunkerSpec({ kind: 'fixed', windowTokens: 128, overlap: 0 })).toBe('fixed:128/0');
    expect(formatChunkerSpec({ kind: 'recursive', chunkSize: 1000, overlap: 100 })).toBe('recursive:1000/100');
  });

  it('refuses bad configurations passed to chunkDocument directly', () => {
    const input = { text: 'x', title: 'T', firstLine: 1 };
    expect(() => chunkDocument(input, { kind: 'heading', maxTokens: 0 })).toThrow(/Bad chunker spec/);
    expect(() => chunkDocument(input, { kind: 'fixed', windowTokens: 64, overlap: 64 })).toThrow(/overlap/);
    expect(() => chunkDocument(input, { kind: 'recursive', chunkSize: Number.NaN, overlap: 0 })).toThrow(/Bad chunker spec/);
  });
});
