// Chat templates the stand-in serves in /api/show and renders prompts with. Each family's text is
// the Go template Ollama ships for it (the plain chat form, without tool blocks), and render() writes
// out exactly what that template produces for a list of messages, so prompt_eval_count counts every
// role marker a real Ollama would. Models without a real vocabulary keep the stand-in's own
// "<role>" shape (GENERIC), which no tokenizer family claims: Quire must treat it as unknown.
import type { VocabularyName } from './vocabularies.js';

export interface TemplateMessage {
  role: string;
  content: string;
}

export interface StandinTemplate {
  text: string;
  render(messages: readonly TemplateMessage[]): string;
}

const LLAMA3 = `{{- range .Messages }}<|start_header_id|>{{ .Role }}<|end_header_id|>

{{ .Content }}<|eot_id|>
{{- end }}<|start_header_id|>assistant<|end_header_id|>

`;

const CHATML = `{{- range .Messages }}<|im_start|>{{ .Role }}
{{ .Content }}<|im_end|>
{{ end }}<|im_start|>assistant
`;

const GEMMA = `{{- range $i, $_ := .Messages }}
{{- $last := eq (len (slice $.Messages $i)) 1 }}
{{- if or (eq .Role "user") (eq .Role "system") }}<start_of_turn>user
{{ .Content }}<end_of_turn>
{{ if $last }}<start_of_turn>model
{{ end }}
{{- else if eq .Role "assistant" }}<start_of_turn>model
{{ .Content }}{{ if not $last }}<end_of_turn>
{{ end }}
{{- end }}
{{- end }}`;

export const GENERIC_TEMPLATE = '{{- range .Messages }}<{{ .Role }}>\n{{ .Content }}\n{{ end }}<assistant>\n';

/**
 * Llama 3's markers with a line Quire's renderer does not know about: a template that looks like a
 * family's and is not quite it (Ollama then reads more than Quire counted).
 */
const LLAMA3_TOOLS = LLAMA3.replace('{{- range .Messages }}', '<|start_header_id|>system<|end_header_id|>\n\nEnvironment: ipython<|eot_id|>\n{{- range .Messages }}');

export type TemplateName = VocabularyName | 'generic' | 'llama3-tools';

export const TEMPLATES: Record<TemplateName, StandinTemplate> = {
  llama3: {
    text: LLAMA3,
    render: (ms) => `${ms.map((m) => `<|start_header_id|>${m.role}<|end_header_id|>\n\n${m.content}<|eot_id|>`).join('')}<|start_header_id|>assistant<|end_header_id|>\n\n`,
  },
  qwen2: {
    text: CHATML,
    render: (ms) => `${ms.map((m) => `<|im_start|>${m.role}\n${m.content}<|im_end|>\n`).join('')}<|im_start|>assistant\n`,
  },
  gemma3: {
    text: GEMMA,
    render: (ms) =>
      ms
        .map((m, i) => {
          const last = i === ms.length - 1;
          if (m.role === 'user' || m.role === 'system') return `<start_of_turn>user\n${m.content}<end_of_turn>\n${last ? '<start_of_turn>model\n' : ''}`;
          if (m.role === 'assistant') return `<start_of_turn>model\n${m.content}${last ? '' : '<end_of_turn>\n'}`;
          return '';
        })
        .join(''),
  },
  'llama3-tools': {
    text: LLAMA3_TOOLS,
    render: (ms) => `<|start_header_id|>system<|end_header_id|>\n\nEnvironment: ipython<|eot_id|>${TEMPLATES.llama3.render(ms)}`,
  },
  generic: {
    text: GENERIC_TEMPLATE,
    render: (ms) => `${ms.map((m) => `<${m.role}>\n${m.content}\n`).join('')}<assistant>\n`,
  },
};
