import { chunkDocument } from './index';
import { chunkViolations } from './invariants';
import type { ChunkerConfig } from './types';
const MB = 50 * 1024 * 1024;
let seed = 3; const rnd = () => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed / 0x7fffffff; };
const kinds: Record<string, () => string> = {
  words: () => 'lorem ipsum dolor sit amet consectetur adipiscing elit '.repeat(Math.ceil(MB / 56)).slice(0, MB),
  sentences: () => 'The quick brown fox jumps over the lazy dog. '.repeat(Math.ceil(MB / 45)).slice(0, MB),
  x: () => 'x'.repeat(MB),
  abc: () => 'abcdefghijklmnopqrstuvwxyz'.repeat(Math.ceil(MB / 26)).slice(0, MB),
  random: () => { const a = new Uint8Array(MB); for (let i = 0; i < MB; i++) a[i] = 97 + Math.floor(rnd() * 26); return Buffer.from(a).toString('latin1'); },
};
const which = process.argv[2]!; const cfgs: ChunkerConfig[] = [{ kind: 'heading', maxTokens: 256 }, { kind: 'recursive', chunkSize: 1000, overlap: 100 }, { kind: 'fixed', windowTokens: 256, overlap: 32 }];
const text = kinds[which]!();
for (const cfg of cfgs) {
  if (process.argv[3] && cfg.kind !== process.argv[3]) continue;
  const t = performance.now();
  const chunks = chunkDocument({ text, title: 'Big', firstLine: 1 }, cfg);
  const ms = performance.now() - t;
  const v = chunkViolations({ text, title: 'Big', firstLine: 1 }, chunks, { countEvery: 499, ...(cfg.kind === 'heading' ? { maxTokens: 256 } : cfg.kind === 'recursive' ? { maxChars: 1000 } : {}) });
  console.log(which, cfg.kind, 'chunks', chunks.length, 'ms', ms.toFixed(0), 'rssMB', (process.memoryUsage().rss / 1e6).toFixed(0), 'violations', v.length, v.slice(0, 2));
}
