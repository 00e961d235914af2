import { countTokens, encodePieces } from './tokenizer';
let seed = 3; const rnd = () => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed / 0x7fffffff; };
const N = 5 * 1024 * 1024;
const a = new Uint8Array(N); for (let i = 0; i < N; i++) a[i] = 97 + Math.floor(rnd() * 26);
const s = Buffer.from(a).toString('latin1');
countTokens('warm up');
for (const L of [256, 1024, 4096, 16384, 65536]) {
  const t = performance.now(); let c = 0;
  for (let p = 0; p < N; p += L) c += countTokens(s.slice(p, p + L));
  console.log(L, (performance.now() - t).toFixed(0), 'ms per 5MB');
}
