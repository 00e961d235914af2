// Token counting for the stand-in. Real Ollama counts with each model's own tokenizer; we use one
// real BPE (gpt-tokenizer, o200k) for every model so counts are realistic in size and stable, not
// identical to any particular model. Special-token look-alikes in user text (e.g. "<|endoftext|>")
// are encoded as plain text instead of throwing, because document text can contain anything.
import { decode, encode } from 'gpt-tokenizer';

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
