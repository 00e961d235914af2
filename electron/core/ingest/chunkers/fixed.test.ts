import { describe, expect, it } from 'vitest';
import { decode, encode } from '../../text/tokenizer';
import { tokenWindows } from './fixed';
import { chunkDocument } from './index';
import { chunkViolations } from './invariants';

function expectedWindows(n: number, size: number, overlap: number): number {
  return n <= size ? 1 : Math.ceil((n - size) / (size - overlap)) + 1;
}

const prose = Array.from({ length: 120 }, (_, i) => `Line ${i}: the quick brown fox number ${i} jumps.`).join('\n');

describe('fixed token windows', () => {
  it('cuts windows of exactly windowTokens body tokens sharing exactly overlap tokens', () => {
    const tokens = encode(prose);
    for (const [size, overlap] of [[64, 16], [50, 0], [100, 99], [37, 5]] as const) {
      const windows = [...tokenWindows(prose, size, overlap)];
      expect(windows).toHaveLength(expectedWindows(tokens.length, size, overlap));
      windows.forEach((w, k) => {
        const first = k * (size - overlap);
        expect(prose.slice(w.start, w.end)).toBe(decode(tokens.slice(first, first + size)));
      });
      expect(windows[windows.length - 1]!.end).toBe(prose.length);
    }
  });

  it('emits one chunk per window with valid lines, paths and counts', () => {
    const text = `# Doc\n\n${prose}\n\n## Tail\n\n${prose}`;
    const input = { text, title: 'Doc', firstLine: 2 };
    const chunks = chunkDocument(input, { kind: 'fixed', windowTokens: 128, overlap: 32 });
    expect(chunks).toHaveLength(expectedWindows(encode(text).length, 128, 32));
    expect(chunkViolations(input, chunks)).toEqual([]);
    expect(chunks[0]!.headingPath).toBe('Doc');
    expect(chunks[chunks.length - 1]!.headingPath).toBe('Doc > Tail');
    expect(chunks[0]!.startLine).toBe(2);
  });

  it('keeps a short body in one window', () => {
    const chunks = chunkDocument({ text: 'Tiny note.', title: 'T', firstLine: 1 }, { kind: 'fixed', windowTokens: 64, overlap: 8 });
    expect(chunks).toMatchObject([{ text: 'Tiny note.', headingPath: 'T', startLine: 1, endLine: 1 }]);
  });

  it('never cuts inside a character', () => {
    const text = '😀 日本語のテキスト 👍🏽'.repeat(40);
    for (const w of tokenWindows(text, 8, 3)) {
      const piece = text.slice(w.start, w.end);
      expect(piece).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
    }
    const input = { text, title: 'T', firstLine: 1 };
    expect(chunkViolations(input, chunkDocument(input, { kind: 'fixed', windowTokens: 8, overlap: 3 }))).toEqual([]);
  });
});
