// What the budget needs from a model's tokenizer. Both kinds (bpe.ts, spm.ts) recognise the
// vocabulary's control and user-defined tokens in the text first (special-tokens.ts), as Ollama
// does with a rendered prompt, and never add BOS themselves: the template renderer decides that.
import { ByteLevelBpe } from './bpe';
import { SentencePiece } from './spm';
import type { Vocabulary } from './vocabulary';

export interface ModelTokenizer {
  readonly kind: 'gpt2' | 'llama';
  readonly bos: number | null;
  readonly addBos: boolean;
  encode(text: string): number[];
  count(text: string): number;
}

export function createTokenizer(v: Vocabulary): ModelTokenizer {
  return v.model === 'gpt2' ? new ByteLevelBpe(v) : new SentencePiece(v);
}
