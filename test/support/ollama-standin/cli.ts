// `npm run standin -- [--port 11435] [--host 127.0.0.1] [--latency ms] [--stream-delay ms] [--sentence-encoder]`
//
// Runs the Ollama stand-in on its own, for demos and for poking at Quire by hand without a real
// Ollama (point Quire at it with OLLAMA_HOST=http://127.0.0.1:11435). It exists for tests and
// demos only: it answers with hashed-word vectors and sentences copied from the prompt, and is never
// shipped as, or mistaken for, a model (`--sentence-encoder` adds one real embedding model, the
// Universal Sentence Encoder lite from a dev dependency: sentence-encoder.ts). Default port 11435 so it never shadows a real Ollama on
// 11434. Loopback only. Ctrl-C (SIGINT) or SIGTERM stops it.
import { parseArgs } from 'node:util';
import { DEFAULT_MODELS } from './models.js';
import { sentenceEncoderAvailable, sentenceEncoderSpec } from './sentence-encoder.js';
import { assertLoopback, startStandin } from './server.js';

function int(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} needs a non-negative integer, got ${value}`);
  return n;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      latency: { type: 'string' },
      'stream-delay': { type: 'string' },
      'sentence-encoder': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log('usage: npm run standin -- [--port 11435] [--host 127.0.0.1] [--latency ms] [--stream-delay ms] [--sentence-encoder]');
    return;
  }
  const host = values.host ?? '127.0.0.1';
  assertLoopback(host);
  if (values['sentence-encoder'] && !(await sentenceEncoderAvailable())) throw new Error('--sentence-encoder needs the dev dependencies installed (npm ci)');
  const standin = await startStandin({
    ...(values['sentence-encoder'] ? { models: [...DEFAULT_MODELS, sentenceEncoderSpec()] } : {}),
    host,
    port: int('port', values.port, 11435),
    latencyMs: int('latency', values.latency, 0),
    // A little delay by default so a demo shows tokens arriving rather than one block.
    streamDelayMs: int('stream-delay', values['stream-delay'], 15),
  });
  console.log(`Ollama stand-in listening on ${standin.url}`);
  const shutdown = () => {
    void standin.close().then(() => process.exit(0));
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

main().catch((e: unknown) => {
  console.error(`standin: ${(e as Error).message}`);
  process.exit(1);
});
