import { describe, expect, it } from 'vitest';
import { TEMPLATES } from '../../../test/support/ollama-standin/templates';
import { renderChat, templateFamily } from './chat-templates';

const chat = [
  { role: 'system', content: 'Rules.' },
  { role: 'user', content: 'Earlier question' },
  { role: 'assistant', content: 'Earlier answer' },
  { role: 'user', content: 'Sources: …\n\nQuestion: now?' },
];

describe('templateFamily', () => {
  it.each([
    ['llama3', TEMPLATES.llama3.text],
    ['chatml', TEMPLATES.qwen2.text],
    ['gemma', TEMPLATES.gemma3.text],
    ['mistral', '{{- range $index, $_ := .Messages }}{{- if eq .Role "user" }}[INST] {{ .Content }}[/INST]{{- else }} {{ .Content }}</s>{{- end }}{{- end }}'],
    ['phi3', '{{- range .Messages }}<|{{ .Role }}|>\n{{ .Content }}<|end|>\n{{ end }}<|assistant|>\n'],
    ['phi4', '{{- range .Messages }}<|im_start|>{{ .Role }}<|im_sep|>{{ .Content }}<|im_end|>{{ end }}<|im_start|>assistant<|im_sep|>'],
  ])('recognises %s', (family, text) => {
    expect(templateFamily(text)).toBe(family);
  });

  it('knows no family in the stand-in\'s own template, a bare prompt, or nothing', () => {
    expect(templateFamily(TEMPLATES.generic.text)).toBeNull();
    expect(templateFamily('{{ .Prompt }}')).toBeNull();
    expect(templateFamily(null)).toBeNull();
  });
});

describe('renderChat', () => {
  // The stand-in renders each family's Go template its own way (test/support/ollama-standin/templates.ts).
  it.each([
    ['llama3', 'llama3'],
    ['chatml', 'qwen2'],
    ['gemma', 'gemma3'],
  ] as const)('%s writes what the template makes of the messages', (family, standin) => {
    expect(renderChat(family, chat)).toBe(TEMPLATES[standin].render(chat));
  });

  it('Llama 3.1/3.2: the system text goes under the knowledge-date preamble', () => {
    const template = '<|start_header_id|>system<|end_header_id|>\n\nCutting Knowledge Date: December 2023\n\n{{ if .System }}{{ .System }}{{ end }}<|eot_id|>{{ range .Messages }}…<|eot_id|>{{ end }}';
    expect(renderChat('llama3', chat.slice(0, 2), template)).toBe(
      '<|start_header_id|>system<|end_header_id|>\n\nCutting Knowledge Date: December 2023\n\nRules.<|eot_id|>' +
        '<|start_header_id|>user<|end_header_id|>\n\nEarlier question<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n',
    );
  });

  it('Mistral: the system text joins the last user message; answers end with </s>', () => {
    expect(renderChat('mistral', chat)).toBe('[INST] Earlier question[/INST] Earlier answer</s>[INST] Rules.\n\nSources: …\n\nQuestion: now?[/INST]');
  });

  it('Phi-3 and Phi-4 wrap every role and cue the assistant', () => {
    expect(renderChat('phi3', chat.slice(0, 2))).toBe('<|system|>\nRules.<|end|>\n<|user|>\nEarlier question<|end|>\n<|assistant|>\n');
    expect(renderChat('phi4', chat.slice(0, 2))).toBe('<|im_start|>system<|im_sep|>Rules.<|im_end|><|im_start|>user<|im_sep|>Earlier question<|im_end|><|im_start|>assistant<|im_sep|>');
  });
});
