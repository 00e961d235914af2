// How a byte-level BPE vocabulary splits text into pieces before merging, chosen by the GGUF's
// tokenizer.ggml.pre (llama.cpp's pre-tokenizer types). A token never spans two pieces.
//  - llama-bpe (Llama 3): contractions in any case, a letter run with one leading non-letter,
//    digits in threes, punctuation runs with their line ends, newline runs, other whitespace.
//  - qwen2: the same but one digit per piece.
//  - gpt-2: GPT-2's original split (lower-case contractions, a space glued to the next word,
//    digit runs of any length).
//  - default: llama.cpp's fallback for a BPE vocabulary that names no pre-tokenizer, four splits in
//    turn: punctuation runs, then GPT-2's split, then digit runs, then digits in threes.
// A stage splits each piece into its matches and the text between them, both kept, as llama.cpp's
// unicode_regex_split does. The expressions use JavaScript's `u` flag; \p{L}, \p{N} and \s mean what
// they mean in the regexes these vocabularies were trained with.

const LLAMA3 = String.raw`(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`;
const QWEN2 = String.raw`(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`;
const GPT2 = String.raw`'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+`;
const DEFAULT = [String.raw`[\p{P}\$\+<=>\^~\|]+`, GPT2, String.raw`\p{N}+`, '[0-9][0-9][0-9]'];

const STAGES: Record<string, readonly string[]> = {
  'llama-bpe': [LLAMA3],
  llama3: [LLAMA3],
  'llama-v3': [LLAMA3],
  qwen2: [QWEN2],
  'gpt-2': [GPT2],
  default: DEFAULT,
};

export const SUPPORTED_PRE: ReadonlySet<string> = new Set(Object.keys(STAGES));

export type Splitter = (text: string) => string[];

export function splitter(pre: string): Splitter {
  const stages = STAGES[pre];
  if (!stages) throw new Error(`No pre-tokenizer "${pre}"`);
  const patterns = stages.map((s) => new RegExp(s, 'gu'));
  if (patterns.length === 1) {
    const re = patterns[0]!;
    // One expression that matches every character: its matches are the pieces.
    return (text) => text.match(re) ?? [];
  }
  return (text) => {
    let pieces = [text];
    for (const re of patterns) pieces = pieces.flatMap((p) => splitKeepingGaps(p, re));
    return pieces;
  };
}

function splitKeepingGaps(text: string, re: RegExp): string[] {
  const out: string[] = [];
  let from = 0;
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    if (m[0] === '') {
      re.lastIndex++;
      continue;
    }
    if (m.index > from) out.push(text.slice(from, m.index));
    out.push(m[0]);
    from = m.index + m[0].length;
  }
  if (from < text.length) out.push(text.slice(from));
  return out;
}

/**
 * Llama 3's tokenizer takes a whole piece that is itself a token as that token, without merging
 * (Hugging Face's ignore_merges; llama.cpp sets it for llama-bpe). The others always merge.
 */
export function ignoresMerges(pre: string): boolean {
  return LLAMA3_PRE.has(pre);
}

/** The names llama.cpp gives Llama 3's pre-tokenizer. */
export const LLAMA3_PRE: ReadonlySet<string> = new Set(['llama-bpe', 'llama3', 'llama-v3']);
