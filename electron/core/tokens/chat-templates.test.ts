import { describe, expect, it } from 'vitest';
import { GEMMA3_INSTRUCT, GEMMA_INSTRUCT, LLAMA2_CHAT, MISTRAL_INSTRUCT } from '../../../test/fixtures/ollama-template-variants';
import { TEMPLATES } from '../../../test/support/ollama-standin/templates';
import { knownTemplate, renderChat, templateFamily, type TemplateFamily, type TemplateMessage } from './chat-templates';
import { KNOWN_TEMPLATES } from './known-templates';

// The message lists of Ollama's own template tests (template/template_test.go, TestTemplate).
const S = 'You are a helpful assistant.';
const U1 = 'Hello, how are you?';
const A1 = "I'm doing great. How can I help you today?";
const U2 = "I'd like to show off how chat templating works!";
const CASES: Record<string, TemplateMessage[]> = {
  user: [{ role: 'user', content: U1 }],
  'user-assistant-user': [{ role: 'user', content: U1 }, { role: 'assistant', content: A1 }, { role: 'user', content: U2 }],
  'system-user-assistant-user': [{ role: 'system', content: S }, { role: 'user', content: U1 }, { role: 'assistant', content: A1 }, { role: 'user', content: U2 }],
};

describe('renderChat writes what Ollama renders, byte for byte', () => {
  // Ollama's expected outputs, template/testdata/<name>.gotmpl/<case> in github.com/ollama/ollama at
  // fb30760996871fa9460115c753afd2c60d4ab0f7, for the templates of that commit.
  const upstream: Record<string, [TemplateFamily, Record<string, string>]> = {
    'llama3-instruct.gotmpl': ['llama3', {
      "user": "<|start_header_id|>user<|end_header_id|>\n\nHello, how are you?<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n",
      "user-assistant-user": "<|start_header_id|>user<|end_header_id|>\n\nHello, how are you?<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\nI'm doing great. How can I help you today?<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nI'd like to show off how chat templating works!<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n",
      "system-user-assistant-user": "<|start_header_id|>system<|end_header_id|>\n\nYou are a helpful assistant.<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nHello, how are you?<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\nI'm doing great. How can I help you today?<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nI'd like to show off how chat templating works!<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n",
    }],
    'chatml.gotmpl': ['chatml', {
      "user": "<|im_start|>user\nHello, how are you?<|im_end|>\n<|im_start|>assistant\n",
      "user-assistant-user": "<|im_start|>user\nHello, how are you?<|im_end|>\n<|im_start|>assistant\nI'm doing great. How can I help you today?<|im_end|>\n<|im_start|>user\nI'd like to show off how chat templating works!<|im_end|>\n<|im_start|>assistant\n",
      "system-user-assistant-user": "<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n<|im_start|>user\nHello, how are you?<|im_end|>\n<|im_start|>assistant\nI'm doing great. How can I help you today?<|im_end|>\n<|im_start|>user\nI'd like to show off how chat templating works!<|im_end|>\n<|im_start|>assistant\n",
    }],
    'phi-3.gotmpl': ['phi3', {
      "user": "<|user|>\nHello, how are you?<|end|>\n<|assistant|>\n",
      "user-assistant-user": "<|user|>\nHello, how are you?<|end|>\n<|assistant|>\nI'm doing great. How can I help you today?<|end|>\n<|user|>\nI'd like to show off how chat templating works!<|end|>\n<|assistant|>\n",
      "system-user-assistant-user": "<|system|>\nYou are a helpful assistant.<|end|>\n<|user|>\nHello, how are you?<|end|>\n<|assistant|>\nI'm doing great. How can I help you today?<|end|>\n<|user|>\nI'd like to show off how chat templating works!<|end|>\n<|assistant|>\n",
    }],
  };
  for (const [name, [family, outputs]] of Object.entries(upstream)) {
    it.each(Object.entries(outputs))(`${name}: %s, as in Ollama's testdata`, (c, expected) => {
      expect(renderChat(family, CASES[c]!)).toBe(expected);
    });
  }

  // The library templates, rendered by hand from their text (known-templates.ts) under Go's
  // text/template rules ({{- and -}} trim the whitespace beside them) and template.go's collation.
  const H = (role: string) => `<|start_header_id|>${role}<|end_header_id|>\n\n`;
  const library: Record<string, [TemplateFamily, Record<string, string>]> = {
    'llama3.2': ['llama3.2', {
      // No system message: the preamble is still sent, with nothing after the date's blank line.
      user: `${H('system')}Cutting Knowledge Date: December 2023\n\n<|eot_id|>${H('user')}${U1}<|eot_id|>${H('assistant')}`,
      'user-assistant-user': `${H('system')}Cutting Knowledge Date: December 2023\n\n<|eot_id|>${H('user')}${U1}<|eot_id|>${H('assistant')}${A1}<|eot_id|>${H('user')}${U2}<|eot_id|>${H('assistant')}`,
      'system-user-assistant-user': `${H('system')}Cutting Knowledge Date: December 2023\n\n${S}<|eot_id|>${H('user')}${U1}<|eot_id|>${H('assistant')}${A1}<|eot_id|>${H('user')}${U2}<|eot_id|>${H('assistant')}`,
    }],
    'qwen2.5': ['qwen2.5', {
      user: `<|im_start|>user\n${U1}<|im_end|>\n<|im_start|>assistant\n`,
      'user-assistant-user': `<|im_start|>user\n${U1}<|im_end|>\n<|im_start|>assistant\n${A1}<|im_end|>\n<|im_start|>user\n${U2}<|im_end|>\n<|im_start|>assistant\n`,
      'system-user-assistant-user': `<|im_start|>system\n${S}<|im_end|>\n<|im_start|>user\n${U1}<|im_end|>\n<|im_start|>assistant\n${A1}<|im_end|>\n<|im_start|>user\n${U2}<|im_end|>\n<|im_start|>assistant\n`,
    }],
    gemma3: ['gemma3', {
      user: `<start_of_turn>user\n${U1}<end_of_turn>\n<start_of_turn>model\n`,
      'user-assistant-user': `<start_of_turn>user\n${U1}<end_of_turn>\n<start_of_turn>model\n${A1}<end_of_turn>\n<start_of_turn>user\n${U2}<end_of_turn>\n<start_of_turn>model\n`,
      // The system message is a user turn of its own.
      'system-user-assistant-user': `<start_of_turn>user\n${S}<end_of_turn>\n<start_of_turn>user\n${U1}<end_of_turn>\n<start_of_turn>model\n${A1}<end_of_turn>\n<start_of_turn>user\n${U2}<end_of_turn>\n<start_of_turn>model\n`,
    }],
    mistral: ['mistral', {
      // The space before {{ .Response }} is rendered after the last [/INST].
      user: `[INST] ${U1}[/INST] `,
      'user-assistant-user': `[INST] ${U1}[/INST] ${A1}</s>[INST] ${U2}[/INST] `,
      'system-user-assistant-user': `[INST] ${U1}[/INST] ${A1}</s>[INST] ${S}\n\n${U2}[/INST] `,
    }],
    phi4: ['phi4', {
      user: `<|im_start|>user<|im_sep|>\n${U1}<|im_end|>\n<|im_start|>assistant<|im_sep|>\n`,
      'user-assistant-user': `<|im_start|>user<|im_sep|>\n${U1}<|im_end|>\n<|im_start|>assistant<|im_sep|>\n${A1}<|im_end|>\n<|im_start|>user<|im_sep|>\n${U2}<|im_end|>\n<|im_start|>assistant<|im_sep|>\n`,
      'system-user-assistant-user': `<|im_start|>system<|im_sep|>\n${S}<|im_end|>\n<|im_start|>user<|im_sep|>\n${U1}<|im_end|>\n<|im_start|>assistant<|im_sep|>\n${A1}<|im_end|>\n<|im_start|>user<|im_sep|>\n${U2}<|im_end|>\n<|im_start|>assistant<|im_sep|>\n`,
    }],
  };
  for (const [name, [family, outputs]] of Object.entries(library)) {
    it.each(Object.entries(outputs))(`${name} (library): %s`, (c, expected) => {
      expect(renderChat(family, CASES[c]!)).toBe(expected);
    });
  }

  it('collates as Ollama does: one role twice in a row is one message, joined by a blank line', () => {
    const twice = [{ role: 'system', content: 'A' }, { role: 'system', content: 'B' }, { role: 'user', content: 'Q' }];
    expect(renderChat('chatml', twice)).toBe('<|im_start|>system\nA\n\nB<|im_end|>\n<|im_start|>user\nQ<|im_end|>\n<|im_start|>assistant\n');
    expect(renderChat('llama3.2', twice)).toBe(`${H('system')}Cutting Knowledge Date: December 2023\n\nA\n\nB<|eot_id|>${H('user')}Q<|eot_id|>${H('assistant')}`);
  });

  // The stand-in renders the templates it serves with code of its own (test/support/ollama-standin).
  const quire = [
    { role: 'system', content: 'Rules.' },
    { role: 'user', content: 'Earlier question' },
    { role: 'assistant', content: 'Earlier answer' },
    { role: 'user', content: 'Sources: …\n\nQuestion: now?' },
  ];
  it.each(['llama3', 'qwen2', 'gemma3'] as const)('agrees with the stand-in on the %s model\'s template', (name) => {
    const known = knownTemplate(TEMPLATES[name].text);
    expect(known).not.toBeNull();
    for (const ms of [quire, quire.slice(0, 2), ...Object.values(CASES)]) expect(renderChat(known!.family, ms)).toBe(TEMPLATES[name].render(ms));
  });
});

describe('knownTemplate: the whole text, or approximate', () => {
  it('recognises each known text, and the stand-in\'s real ones as the library\'s', () => {
    for (const t of KNOWN_TEMPLATES) expect(knownTemplate(t.text)).toBe(t);
    expect(templateFamily(TEMPLATES.llama3.text)).toBe('llama3.2');
    expect(templateFamily(TEMPLATES.qwen2.text)).toBe('qwen2.5');
    expect(templateFamily(TEMPLATES.gemma3.text)).toBe('gemma3');
    // Line endings are the one difference forgiven (Ollama normalises its own templates' too).
    expect(templateFamily(TEMPLATES.gemma3.text.replaceAll('\n', '\r\n'))).toBe('gemma3');
  });

  it.each([
    // Real templates from the ollama repository with a known family's markers that render otherwise.
    ['gemma3-instruct.gotmpl (system in the first user turn, a blank line at the end)', GEMMA3_INSTRUCT],
    ['gemma-instruct.gotmpl', GEMMA_INSTRUCT],
    ['mistral-instruct.gotmpl (the system text first)', MISTRAL_INSTRUCT],
    ['llama2-chat.gotmpl ([INST] with <<SYS>>)', LLAMA2_CHAT],
    // Known texts changed a little: another date, an extra system line, a trailing newline.
    ['llama3.2 with another knowledge date', TEMPLATES.llama3.text.replace('December 2023', 'December 2024')],
    ['llama3 with an extra system block', TEMPLATES['llama3-tools'].text],
    ['qwen2.5 with a default system line', TEMPLATES.qwen2.text.replace('{{- if .System }}\n{{ .System }}', '{{- if .System }}\n{{ .System }}\nToday is {{ currentDate }}.')],
    ['gemma3 with a trailing newline', `${TEMPLATES.gemma3.text}\n`],
    ['the stand-in\'s own shape', TEMPLATES.generic.text],
    ['a bare prompt', '{{ .Prompt }}'],
  ])('does not know %s', (_, text) => {
    expect(knownTemplate(text)).toBeNull();
  });

  it('these variants would have rendered differently (so an "exact" label would have been wrong)', () => {
    // gemma3-instruct.gotmpl as Ollama renders it (template/testdata/gemma3-instruct.gotmpl/system-user-assistant-user at fb30760).
    const ollama = `<start_of_turn>user\n${S}\n\n${U1}<end_of_turn>\n<start_of_turn>model\n${A1}<end_of_turn>\n<start_of_turn>user\n${U2}<end_of_turn>\n<start_of_turn>model\n\n`;
    expect(renderChat('gemma3', CASES['system-user-assistant-user']!)).not.toBe(ollama);
    expect(renderChat('gemma3', CASES['system-user-assistant-user']!).length).toBeGreaterThan(ollama.length);
  });
});
