// A model's vocabulary as its GGUF file declares it (the tokenizer.ggml.* keys), read from the
// model_info of Ollama's /api/show with "verbose": true. Two tokenizer kinds cover the common local
// models: "gpt2" (byte-level BPE with ranked merges: Llama 3, Qwen 2.5/3, Phi-4, Mistral Nemo,
// DeepSeek) and "llama" (SentencePiece with scored pieces and byte fallback: Gemma, Mistral 7B,
// Llama 2). Anything else (WordPiece "bert", "t5", an unknown pre-tokenizer) is not counted
// exactly: Quire falls back to its calibrated estimate and says so.
import { LLAMA3_PRE, SUPPORTED_PRE } from './pretokenize';

/** llama.cpp's token types (tokenizer.ggml.token_type). */
export const TokenType = { normal: 1, unknown: 2, control: 3, userDefined: 4, unused: 5, byte: 6 } as const;

export interface Vocabulary {
  model: 'gpt2' | 'llama';
  /** tokenizer.ggml.pre: how a gpt2 vocabulary splits text before merging. */
  pre: string;
  tokens: string[];
  types: Uint8Array;
  /** gpt2: "left right" in rank order. */
  merges: string[];
  /** llama: one score per token, higher merges first. */
  scores: Float32Array;
  bos: number | null;
  eos: number | null;
  addBos: boolean;
  /** llama: a space is put before the text (Llama 2, Mistral 7B); Gemma says false. */
  addSpacePrefix: boolean;
}

export type VocabularyResult = { ok: true; vocabulary: Vocabulary } | { ok: false; reason: string };


const strings = (v: unknown): string[] | null => (Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : null);
const numbers = (v: unknown): number[] | null => (Array.isArray(v) && v.every((x) => typeof x === 'number') ? (v as number[]) : null);
const int = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : null);

/** Pre-tokenizers for which llama.cpp's vocabulary loader turns BOS on (Llama 3's). */
const BOS_BY_DEFAULT_PRE = LLAMA3_PRE;

/**
 * llama.cpp's default when a GGUF has no tokenizer.ggml.add_bos_token: SentencePiece adds BOS,
 * byte-level BPE does not, except with Llama 3's pre-tokenizer, which sets it.
 */
function addsBosByDefault(model: string, pre: string): boolean {
  return model === 'llama' || BOS_BY_DEFAULT_PRE.has(pre);
}

/** The vocabulary in a verbose model_info, or why it cannot be counted exactly. */
export function vocabularyFromModelInfo(info: Record<string, unknown>): VocabularyResult {
  const model = info['tokenizer.ggml.model'];
  if (model !== 'gpt2' && model !== 'llama') return { ok: false, reason: `tokenizer "${String(model ?? 'none')}" is not one Quire counts exactly` };
  const tokens = strings(info['tokenizer.ggml.tokens']);
  if (!tokens || tokens.length === 0) return { ok: false, reason: 'Ollama sent no vocabulary (an Ollama older than 0.5 answers /api/show without it)' };
  const types = numbers(info['tokenizer.ggml.token_type']);
  const pre = typeof info['tokenizer.ggml.pre'] === 'string' ? (info['tokenizer.ggml.pre'] as string) : 'default';
  const vocabulary: Vocabulary = {
    model,
    pre,
    tokens,
    types: Uint8Array.from(types ?? tokens.map(() => TokenType.normal)),
    merges: [],
    scores: new Float32Array(0),
    bos: int(info['tokenizer.ggml.bos_token_id']),
    eos: int(info['tokenizer.ggml.eos_token_id']),
    addBos: typeof info['tokenizer.ggml.add_bos_token'] === 'boolean' ? (info['tokenizer.ggml.add_bos_token'] as boolean) : addsBosByDefault(model, pre),
    addSpacePrefix: typeof info['tokenizer.ggml.add_space_prefix'] === 'boolean' ? (info['tokenizer.ggml.add_space_prefix'] as boolean) : model === 'llama',
  };
  if (vocabulary.types.length !== tokens.length) return { ok: false, reason: 'token types do not match the tokens' };
  if (model === 'gpt2') {
    if (!SUPPORTED_PRE.has(pre)) return { ok: false, reason: `pre-tokenizer "${pre}" is not one Quire implements` };
    const merges = strings(info['tokenizer.ggml.merges']);
    if (!merges) return { ok: false, reason: 'a byte-level BPE vocabulary without merges' };
    vocabulary.merges = merges;
  } else {
    const scores = numbers(info['tokenizer.ggml.scores']);
    if (!scores || scores.length !== tokens.length) return { ok: false, reason: 'a SentencePiece vocabulary without scores' };
    vocabulary.scores = Float32Array.from(scores);
  }
  return { ok: true, vocabulary };
}
