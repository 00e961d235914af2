import { tokenWindows } from './fixed';
import { countTokens } from '../tokenizer';
let seed = 3; const rnd = () => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed / 0x7fffffff; };
const N = 10 * 1024 * 1024;
const a = new Uint8Array(N); for (let i = 0; i < N; i++) a[i] = 97 + Math.floor(rnd() * 26);
const s = Buffer.from(a).toString('latin1');
countTokens('warm');
let t = performance.now(); let n = 0; for (const w of tokenWindows(s, 256, 32)) n++; console.log('windows', n, performance.now() - t);
t = performance.now(); console.log(countTokens(s), 'count whole', performance.now() - t);
