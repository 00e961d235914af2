// The stand-in's real vocabularies: /api/show verbose carries the GGUF tokenizer fields, the plain
// show leaves the arrays out, and prompt_eval_count is the model's own tokenizer over its template.
import { Ollama, type ShowRequest } from 'ollama';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Standin, startStandin } from './server.js';
import { TEMPLATES } from './templates.js';
import { standinVocabulary } from './vocabularies.js';

let s: Standin;
let client: Ollama;

beforeAll(async () => {
  s = await startStandin();
  s.addModel('gemma3:1b');
  client = new Ollama({ host: s.url });
});
afterAll(() => s.close());

const show = (model: string, verbose: boolean) => client.show({ model, verbose } as ShowRequest) as unknown as Promise<{ template: string; model_info: Record<string, unknown> }>;

describe('real vocabularies in /api/show', () => {
  it('sends llama3.2 its byte-level BPE fields only when verbose', async () => {
    const plain = await show('llama3.2', false);
    expect(plain.model_info['tokenizer.ggml.model']).toBe('gpt2');
    expect(plain.model_info['tokenizer.ggml.pre']).toBe('llama-bpe');
    expect(plain.model_info['tokenizer.ggml.tokens']).toBeNull();
    expect(plain.model_info['tokenizer.ggml.merges']).toBeNull();
    const full = await show('llama3.2', true);
    const tokens = full.model_info['tokenizer.ggml.tokens'] as string[];
    const merges = full.model_info['tokenizer.ggml.merges'] as string[];
    expect(tokens.length).toBe(128_256);
    expect(tokens[128_000]).toBe('<|begin_of_text|>');
    expect(merges[0]).toBe('Ġ Ġ');
    expect((full.model_info['tokenizer.ggml.token_type'] as number[])[128_000]).toBe(3);
    expect(full.model_info['tokenizer.ggml.bos_token_id']).toBe(128_000);
    expect(full.model_info['tokenizer.ggml.add_bos_token']).toBe(true);
    expect(full.template).toContain('<|start_header_id|>');
  });

  it('sends gemma3 SentencePiece fields with scores, byte tokens and no space prefix', async () => {
    const full = await show('gemma3:1b', true);
    const info = full.model_info;
    expect(info['tokenizer.ggml.model']).toBe('llama');
    const tokens = info['tokenizer.ggml.tokens'] as string[];
    const types = info['tokenizer.ggml.token_type'] as number[];
    const scores = info['tokenizer.ggml.scores'] as number[];
    expect(tokens.length).toBe(scores.length);
    const byteA = tokens.indexOf('<0x41>');
    expect(types[byteA]).toBe(6);
    // A piece built by an earlier merge scores higher than one built later.
    const [common, rarer] = [tokens.indexOf('▁the'), tokens.indexOf('▁quantum')];
    expect(Math.min(common, rarer)).toBeGreaterThanOrEqual(0);
    expect(scores[common]!).toBeGreaterThan(scores[rarer]!);
    expect(info['tokenizer.ggml.add_space_prefix']).toBe(false);
    expect(info['tokenizer.ggml.merges']).toBeUndefined();
    expect(full.template).toContain('<start_of_turn>');
  });
});

describe('prompt_eval_count', () => {
  const messages = [
    { role: 'system', content: 'Answer from the sources.' },
    { role: 'user', content: 'Sources:\n<source id="a#1">Cats sleep 16 hours. 猫は寝る 🐈</source>\n\nQuestion: How long do cats sleep?' },
  ];

  it.each([
    ['llama3.2', 'llama3', 1],
    ['qwen2.5:0.5b', 'qwen2', 0],
    ['gemma3:1b', 'gemma3', 1],
  ] as const)('%s counts its own template with its own tokenizer', async (model, vocab, bos) => {
    const res = await client.chat({ model, messages, stream: false });
    const expected = bos + standinVocabulary(vocab).encode(TEMPLATES[vocab].render(messages)).length;
    expect(res.prompt_eval_count).toBe(expected);
    // The role markers are single special tokens, not their spelling.
    const rendered = standinVocabulary(vocab).encode(TEMPLATES[vocab].render(messages));
    expect(rendered.length).toBeLessThan(standinVocabulary(vocab).encode(messages.map((m) => m.content).join('')).length + 30);
  });

  it('cuts a prompt longer than num_ctx and reports only what was kept', async () => {
    const long = { role: 'user', content: 'word '.repeat(400) + '\n\nQuestion: what?' };
    const res = await client.chat({ model: 'qwen2.5:0.5b', messages: [messages[0]!, long], stream: false, options: { num_ctx: 128 } });
    expect(res.prompt_eval_count).toBeLessThanOrEqual(128);
  });
});
