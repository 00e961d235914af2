import { describe, expect, it } from 'vitest';
import { SUPPORTED_PRE, splitter } from './pretokenize';

describe('pre-tokenizers', () => {
  it('llama.cpp\'s default runs its four splits in turn: punctuation, GPT-2, digit runs, threes', () => {
    expect(splitter('default')('Hello, world! 12345')).toEqual(['Hello', ',', ' world', '!', ' ', '123', '45']);
  });

  it('Llama 3 keeps digits in threes, Qwen one by one, GPT-2 whole', () => {
    expect(splitter('llama-bpe')('x 1234567')).toEqual(['x', ' ', '123', '456', '7']);
    expect(splitter('qwen2')('x 123')).toEqual(['x', ' ', '1', '2', '3']);
    expect(splitter('gpt-2')('x 1234567')).toEqual(['x', ' 1234567']);
  });

  it.each([...SUPPORTED_PRE])('%s loses no character', (pre) => {
    const text = "Don't  stop:\n\n\tcafé 日本 🎉 x=1,234.5 <|im_start|>";
    expect(splitter(pre)(text).join('')).toBe(text);
  });
});
