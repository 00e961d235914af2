// The prompt Ollama builds from the messages Quire sends, for the template families common local
// models use, so the budget counts every role marker (and BOS) the model will read. A family is
// recognised from the template text /api/show returns (its distinctive markers); a template of no
// family Quire knows is left to the calibrated estimate, labelled approximate.
//
// Each renderer writes what that family's Ollama template produces for a chat of system, user and
// assistant messages without tools or images (all Quire sends):
//  - Llama 3: <|start_header_id|>role<|end_header_id|>\n\n content <|eot_id|>, then the assistant
//    header. Llama 3.1/3.2's library template puts the system text under a "Cutting Knowledge
//    Date" preamble, always sent.
//  - ChatML (Qwen 2.5/3, and others): <|im_start|>role\n content <|im_end|>\n, then the assistant cue.
//  - Phi-4 (ChatML with <|im_sep|>): <|im_start|>role<|im_sep|> content <|im_end|>.
//  - Gemma: system and user as user turns, <start_of_turn>user\n … <end_of_turn>\n, then the model cue.
//  - Mistral: [INST] … [/INST] per user turn, the system text before the last user message,
//    assistant turns followed by </s>.
//  - Phi-3: <|role|>\n content <|end|>\n, then <|assistant|>\n.

export type TemplateFamily = 'llama3' | 'chatml' | 'phi4' | 'gemma' | 'mistral' | 'phi3';

export interface TemplateMessage {
  role: string;
  content: string;
}

export function templateFamily(template: string | null | undefined): TemplateFamily | null {
  if (!template) return null;
  const has = (...markers: string[]) => markers.every((m) => template.includes(m));
  if (has('<|start_header_id|>', '<|end_header_id|>', '<|eot_id|>')) return 'llama3';
  if (has('<|im_start|>', '<|im_sep|>', '<|im_end|>')) return 'phi4';
  if (has('<|im_start|>', '<|im_end|>')) return 'chatml';
  if (has('<start_of_turn>', '<end_of_turn>')) return 'gemma';
  if (has('[INST]', '[/INST]')) return 'mistral';
  if (has('<|end|>', '<|assistant|>')) return 'phi3';
  return null;
}

/** Llama 3.1/3.2 library templates open with this system preamble whatever the messages. */
const KNOWLEDGE_DATE = /Cutting Knowledge Date: ([^\n{]+)/;

export function renderChat(family: TemplateFamily, messages: readonly TemplateMessage[], template = ''): string {
  switch (family) {
    case 'llama3':
      return renderLlama3(messages, template);
    case 'chatml':
      return `${messages.map((m) => `<|im_start|>${m.role}\n${m.content}<|im_end|>\n`).join('')}<|im_start|>assistant\n`;
    case 'phi4':
      return `${messages.map((m) => `<|im_start|>${m.role}<|im_sep|>${m.content}<|im_end|>`).join('')}<|im_start|>assistant<|im_sep|>`;
    case 'gemma':
      return messages
        .map((m, i) => {
          const last = i === messages.length - 1;
          if (m.role === 'user' || m.role === 'system') return `<start_of_turn>user\n${m.content}<end_of_turn>\n${last ? '<start_of_turn>model\n' : ''}`;
          if (m.role === 'assistant') return `<start_of_turn>model\n${m.content}${last ? '' : '<end_of_turn>\n'}`;
          return '';
        })
        .join('');
    case 'mistral':
      return renderMistral(messages);
    case 'phi3':
      return `${messages.map((m) => `<|${m.role}|>\n${m.content}<|end|>\n`).join('')}<|assistant|>\n`;
  }
}

function renderLlama3(messages: readonly TemplateMessage[], template: string): string {
  const header = (role: string) => `<|start_header_id|>${role}<|end_header_id|>\n\n`;
  const date = KNOWLEDGE_DATE.exec(template)?.[1]?.trim();
  let out = '';
  let rest = messages;
  if (date) {
    // The preamble holds the system text ({{ .System }}: the system messages joined by blank lines).
    const system = messages.filter((m) => m.role === 'system').map((m) => m.content).join('\n\n');
    out += `${header('system')}Cutting Knowledge Date: ${date}\n\n${system}<|eot_id|>`;
    rest = messages.filter((m) => m.role !== 'system');
  }
  for (const m of rest) out += `${header(m.role)}${m.content}<|eot_id|>`;
  return `${out}${header('assistant')}`;
}

function renderMistral(messages: readonly TemplateMessage[]): string {
  const system = messages.filter((m) => m.role === 'system').map((m) => m.content).join('\n\n');
  const turns = messages.filter((m) => m.role !== 'system');
  const lastUser = turns.map((m) => m.role).lastIndexOf('user');
  return turns
    .map((m, i) => {
      if (m.role === 'user') return i === lastUser && system ? `[INST] ${system}\n\n${m.content}[/INST]` : `[INST] ${m.content}[/INST]`;
      if (m.role === 'assistant') return ` ${m.content}</s>`;
      return '';
    })
    .join('');
}
