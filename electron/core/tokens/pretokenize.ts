// How a byte-level BPE vocabulary splits text into pieces before merging, chosen by the GGUF's
// tokenizer.ggml.pre (llama.cpp's pre-tokenizer types). A token never spans two pieces.
//  - llama-bpe (Llama 3): contractions in any case, a letter run with one leading non-letter,
//    digits in threes, punctuation runs with their line ends, newline runs, other whitespace.
//  - qwen2: the same but one digit per piece.
//  - default / gpt-2: GPT-2's original split (lower-case contractions, a space glued to the next
//    word, digit runs of any length).
// Each is a JavaScript regular expression with the `u` flag; \p{L}, \p{N} and \s mean what they
// mean in the Rust regexes of the Hugging Face tokenizers these vocabularies were trained with.

const LLAMA3 = String.raw`(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`;
const QWEN2 = String.raw`(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`;
const GPT2 = String.raw`'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+`;

const SPLITS: Record<string, string> = {
  'llama-bpe': LLAMA3,
  llama3: LLAMA3,
  qwen2: QWEN2,
  default: GPT2,
  'gpt-2': GPT2,
  gpt2: GPT2,
};

export function splitPattern(pre: string): RegExp {
  const source = SPLITS[pre];
  if (!source) throw new Error(`No pre-tokenizer "${pre}"`);
  return new RegExp(source, 'gu');
}

/**
 * Llama 3's tokenizer takes a whole piece that is itself a token as that token, without merging
 * (Hugging Face's ignore_merges; llama.cpp sets it for llama-bpe). The others always merge.
 */
export function ignoresMerges(pre: string): boolean {
  return pre === 'llama-bpe' || pre === 'llama3';
}
