// The prompt Ollama builds from the messages Quire sends, for the chat templates Quire knows
// byte for byte (known-templates.ts), so the budget counts every role marker (and BOS) the model
// will read. Any other template, and any model Ollama renders with a built-in renderer instead of
// its template, is left to the calibrated estimate, labelled approximate.
//
// Each renderer writes what its template produces, under Ollama's template/template.go, for a chat
// of system, user and assistant messages without tools or images (all Quire sends). Ollama first
// collates the messages: consecutive messages of one role become one, their texts joined by a
// blank line, and .System is every system text joined the same way.
//  - llama3: <|start_header_id|>role<|end_header_id|>\n\n content <|eot_id|> for every message,
//    then the assistant header.
//  - llama3.2: the same, but .System goes under a fixed "Cutting Knowledge Date" preamble that is
//    always sent (empty without a system message), and the last answer has no <|eot_id|>.
//  - chatml: <|im_start|>role\n content <|im_end|>\n for every message, then the assistant cue.
//  - qwen2.5: .System first as one system turn (none without), then user and assistant turns.
//  - gemma3: system and user as user turns, <start_of_turn>user\n … <end_of_turn>\n, then the model cue.
//  - mistral: [INST] … [/INST] per user turn, .System before the last user message, answers as
//    " text</s>", and a space at the very end (the template's " {{ .Response }}").
//  - phi3: <|role|>\n content <|end|>\n, then <|assistant|>\n.
//  - phi4: <|im_start|>role<|im_sep|>\n content <|im_end|>\n, then <|im_start|>assistant<|im_sep|>\n.
import { KNOWN_TEMPLATES, type KnownTemplate } from './known-templates';

export type TemplateFamily = 'llama3' | 'llama3.2' | 'chatml' | 'qwen2.5' | 'gemma3' | 'mistral' | 'phi3' | 'phi4';

export interface TemplateMessage {
  role: string;
  content: string;
}

const byText = new Map(KNOWN_TEMPLATES.map((t) => [t.text, t]));

/**
 * The known template this text is, or null. Ollama reads its embedded templates with CRLF turned
 * into LF; nothing else is forgiven.
 */
export function knownTemplate(template: string | null | undefined): KnownTemplate | null {
  if (!template) return null;
  return byText.get(template.replaceAll('\r\n', '\n')) ?? null;
}

export function templateFamily(template: string | null | undefined): TemplateFamily | null {
  return knownTemplate(template)?.family ?? null;
}

/** Ollama's collation: runs of one role merged, and every system text joined, for .System. */
function collate(messages: readonly TemplateMessage[]): { system: string; messages: TemplateMessage[] } {
  const out: TemplateMessage[] = [];
  for (const m of messages) {
    const prev = out.at(-1);
    if (prev && prev.role === m.role && m.role !== 'tool') prev.content += `\n\n${m.content}`;
    else out.push({ role: m.role, content: m.content });
  }
  const system = messages.filter((m) => m.role === 'system').map((m) => m.content).join('\n\n');
  return { system, messages: out };
}

export function renderChat(family: TemplateFamily, messages: readonly TemplateMessage[]): string {
  const c = collate(messages);
  const ms = c.messages;
  const last = (i: number) => i === ms.length - 1;
  const each = (f: (m: TemplateMessage, i: number) => string) => ms.map(f).join('');
  switch (family) {
    case 'llama3': {
      const header = (role: string) => `<|start_header_id|>${role}<|end_header_id|>\n\n`;
      return `${each((m) => `${header(m.role)}${m.content}<|eot_id|>`)}${header('assistant')}`;
    }
    case 'llama3.2': {
      const header = (role: string) => `<|start_header_id|>${role}<|end_header_id|>\n\n`;
      const preamble = `${header('system')}Cutting Knowledge Date: December 2023\n\n${c.system}<|eot_id|>`;
      return (
        preamble +
        each((m, i) => {
          if (m.role === 'user') return `${header('user')}${m.content}<|eot_id|>${last(i) ? header('assistant') : ''}`;
          if (m.role === 'assistant') return `${header('assistant')}${m.content}${last(i) ? '' : '<|eot_id|>'}`;
          return '';
        })
      );
    }
    case 'chatml':
      return `${each((m) => `<|im_start|>${m.role}\n${m.content}<|im_end|>\n`)}<|im_start|>assistant\n`;
    case 'qwen2.5':
      return (
        (c.system ? `<|im_start|>system\n${c.system}<|im_end|>\n` : '') +
        each((m, i) => {
          let turn = '';
          if (m.role === 'user') turn = `<|im_start|>user\n${m.content}<|im_end|>\n`;
          else if (m.role === 'assistant') turn = `<|im_start|>assistant\n${m.content}${last(i) ? '' : '<|im_end|>\n'}`;
          return m.role !== 'assistant' && last(i) ? `${turn}<|im_start|>assistant\n` : turn;
        })
      );
    case 'gemma3':
      return each((m, i) => {
        if (m.role === 'user' || m.role === 'system') return `<start_of_turn>user\n${m.content}<end_of_turn>\n${last(i) ? '<start_of_turn>model\n' : ''}`;
        if (m.role === 'assistant') return `<start_of_turn>model\n${m.content}${last(i) ? '' : '<end_of_turn>\n'}`;
        return '';
      });
    case 'mistral':
      return `${each((m, i) => {
        if (m.role === 'user') return `[INST] ${c.system && last(i) ? `${c.system}\n\n` : ''}${m.content}[/INST]`;
        if (m.role === 'assistant') return `${m.content ? ` ${m.content}` : ''}</s>`;
        return '';
      })} `;
    case 'phi3':
      return `${each((m) => `<|${m.role}|>\n${m.content}<|end|>\n`)}<|assistant|>\n`;
    case 'phi4':
      return each((m, i) => {
        const turn = `<|im_start|>${m.role}<|im_sep|>\n${m.content}${last(i) ? '' : '<|im_end|>\n'}`;
        return m.role !== 'assistant' && last(i) ? `${turn}<|im_end|>\n<|im_start|>assistant<|im_sep|>\n` : turn;
      });
  }
}
