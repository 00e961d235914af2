// Preloaded with `node --import`: records every module the process loads into the file named by
// QUIRE_MODULE_LOG, one path or URL a line: ES modules as the loader resolves them (hooks.mjs),
// CommonJS ones from require's cache as the process exits (require() calls pass no ESM hook in Node 20).
import fs from 'node:fs';
import { createRequire, register } from 'node:module';

const file = process.env.QUIRE_MODULE_LOG;
if (!file) throw new Error('QUIRE_MODULE_LOG names the file to record loaded modules in');
register('./hooks.mjs', import.meta.url, { data: { file } });
const cache = createRequire(import.meta.url).cache;
process.on('exit', () => fs.appendFileSync(file, Object.keys(cache).map((p) => `${p}\n`).join('')));
