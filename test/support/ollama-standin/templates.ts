// Chat templates the stand-in serves in /api/show and renders prompts with. Each text is the one
// Ollama serves for that model byte for byte (llama3.2, qwen2.5 and gemma3 as pulled from the
// Ollama library, tools blocks and all; sources in electron/core/tokens/known-templates.ts, whose
// copies these are not: a slip in either breaks the exact counts the tests expect), and render()
// writes out what Ollama's Go template engine makes of it for a chat of system, user and
// assistant messages, so prompt_eval_count counts every role marker a real Ollama would. The
// stand-in renders with its own code, written from the template text, not Quire's renderers.
// Models without a real vocabulary keep the stand-in's own "<role>" shape (GENERIC), which no
// known template matches: Quire must treat it as unknown.
import type { VocabularyName } from './vocabularies.js';

export interface TemplateMessage {
  role: string;
  content: string;
}

export interface StandinTemplate {
  text: string;
  render(messages: readonly TemplateMessage[]): string;
}

/** llama3.2 as the library serves it: a "Cutting Knowledge Date" system preamble, tools blocks. */
const LLAMA3_2 = `<|start_header_id|>system<|end_header_id|>

Cutting Knowledge Date: December 2023

{{ if .System }}{{ .System }}
{{- end }}
{{- if .Tools }}When you receive a tool call response, use the output to format an answer to the orginal user question.

You are a helpful assistant with tool calling capabilities.
{{- end }}<|eot_id|>
{{- range $i, $_ := .Messages }}
{{- $last := eq (len (slice $.Messages $i)) 1 }}
{{- if eq .Role "user" }}<|start_header_id|>user<|end_header_id|>
{{- if and $.Tools $last }}

Given the following functions, please respond with a JSON for a function call with its proper arguments that best answers the given prompt.

Respond in the format {"name": function name, "parameters": dictionary of argument name and its value}. Do not use variables.

{{ range $.Tools }}
{{- . }}
{{ end }}
{{ .Content }}<|eot_id|>
{{- else }}

{{ .Content }}<|eot_id|>
{{- end }}{{ if $last }}<|start_header_id|>assistant<|end_header_id|>

{{ end }}
{{- else if eq .Role "assistant" }}<|start_header_id|>assistant<|end_header_id|>
{{- if .ToolCalls }}
{{ range .ToolCalls }}
{"name": "{{ .Function.Name }}", "parameters": {{ .Function.Arguments }}}{{ end }}
{{- else }}

{{ .Content }}
{{- end }}{{ if not $last }}<|eot_id|>{{ end }}
{{- else if eq .Role "tool" }}<|start_header_id|>ipython<|end_header_id|>

{{ .Content }}<|eot_id|>{{ if $last }}<|start_header_id|>assistant<|end_header_id|>

{{ end }}
{{- end }}
{{- end }}`;

/** qwen2.5 as the library serves it: the system text first, a tools block. */
const QWEN2_5 = `{{- if .Messages }}
{{- if or .System .Tools }}<|im_start|>system
{{- if .System }}
{{ .System }}
{{- end }}
{{- if .Tools }}

# Tools

You may call one or more functions to assist with the user query.

You are provided with function signatures within <tools></tools> XML tags:
<tools>
{{- range .Tools }}
{"type": "function", "function": {{ .Function }}}
{{- end }}
</tools>

For each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:
<tool_call>
{"name": <function-name>, "arguments": <args-json-object>}
</tool_call>
{{- end }}<|im_end|>
{{ end }}
{{- range $i, $_ := .Messages }}
{{- $last := eq (len (slice $.Messages $i)) 1 -}}
{{- if eq .Role "user" }}<|im_start|>user
{{ .Content }}<|im_end|>
{{ else if eq .Role "assistant" }}<|im_start|>assistant
{{ if .Content }}{{ .Content }}
{{- else if .ToolCalls }}<tool_call>
{{ range .ToolCalls }}{"name": "{{ .Function.Name }}", "arguments": {{ .Function.Arguments }}}
{{ end }}</tool_call>
{{- end }}{{ if not $last }}<|im_end|>
{{ end }}
{{- else if eq .Role "tool" }}<|im_start|>user
<tool_response>
{{ .Content }}
</tool_response><|im_end|>
{{ end }}
{{- if and (ne .Role "assistant") $last }}<|im_start|>assistant
{{ end }}
{{- end }}
{{- else }}
{{- if .System }}<|im_start|>system
{{ .System }}<|im_end|>
{{ end }}{{ if .Prompt }}<|im_start|>user
{{ .Prompt }}<|im_end|>
{{ end }}<|im_start|>assistant
{{ end }}{{ .Response }}{{ if .Response }}<|im_end|>{{ end }}`;

/** gemma3 as the library serves it. */
const GEMMA3 = `{{- range $i, $_ := .Messages }}
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

/** ollama/ollama template/llama3-instruct.gotmpl: what `ollama create` gives a Llama 3 GGUF. */
const LLAMA3_INSTRUCT = `{{- range .Messages }}<|start_header_id|>{{ .Role }}<|end_header_id|>

{{ .Content }}<|eot_id|>
{{- end }}<|start_header_id|>assistant<|end_header_id|>

`;

export const GENERIC_TEMPLATE = '{{- range .Messages }}<{{ .Role }}>\n{{ .Content }}\n{{ end }}<assistant>\n';

/**
 * Llama 3's markers with a line Quire's renderer does not know about: a template that looks like a
 * family's and is not quite it.
 */
const LLAMA3_TOOLS = LLAMA3_INSTRUCT.replace('{{- range .Messages }}', '<|start_header_id|>system<|end_header_id|>\n\nEnvironment: ipython<|eot_id|>\n{{- range .Messages }}');

export type TemplateName = VocabularyName | 'generic' | 'llama3-tools';

/** Ollama's collation before rendering: runs of one role become one message, joined by a blank line. */
function collated(ms: readonly TemplateMessage[]): { system: string; messages: TemplateMessage[] } {
  const messages: TemplateMessage[] = [];
  for (const m of ms) {
    const prev = messages[messages.length - 1];
    if (prev && prev.role === m.role) messages[messages.length - 1] = { role: m.role, content: `${prev.content}\n\n${m.content}` };
    else messages.push({ ...m });
  }
  return { system: ms.filter((m) => m.role === 'system').map((m) => m.content).join('\n\n'), messages };
}

const header = (role: string) => `<|start_header_id|>${role}<|end_header_id|>\n\n`;

export const TEMPLATES: Record<TemplateName, StandinTemplate> = {
  llama3: {
    text: LLAMA3_2,
    render: (input) => {
      const { system, messages } = collated(input);
      let out = `${header('system')}Cutting Knowledge Date: December 2023\n\n${system}<|eot_id|>`;
      messages.forEach((m, i) => {
        const last = i === messages.length - 1;
        if (m.role === 'user') out += `${header('user')}${m.content}<|eot_id|>${last ? header('assistant') : ''}`;
        else if (m.role === 'assistant') out += `${header('assistant')}${m.content}${last ? '' : '<|eot_id|>'}`;
      });
      return out;
    },
  },
  qwen2: {
    text: QWEN2_5,
    render: (input) => {
      const { system, messages } = collated(input);
      let out = system ? `<|im_start|>system\n${system}<|im_end|>\n` : '';
      messages.forEach((m, i) => {
        const last = i === messages.length - 1;
        if (m.role === 'user') out += `<|im_start|>user\n${m.content}<|im_end|>\n`;
        else if (m.role === 'assistant') out += `<|im_start|>assistant\n${m.content}${last ? '' : '<|im_end|>\n'}`;
        if (m.role !== 'assistant' && last) out += '<|im_start|>assistant\n';
      });
      return out;
    },
  },
  gemma3: {
    text: GEMMA3,
    render: (input) => {
      const { messages } = collated(input);
      return messages
        .map((m, i) => {
          const last = i === messages.length - 1;
          if (m.role === 'user' || m.role === 'system') return `<start_of_turn>user\n${m.content}<end_of_turn>\n${last ? '<start_of_turn>model\n' : ''}`;
          if (m.role === 'assistant') return `<start_of_turn>model\n${m.content}${last ? '' : '<end_of_turn>\n'}`;
          return '';
        })
        .join('');
    },
  },
  'llama3-tools': {
    text: LLAMA3_TOOLS,
    render: (input) =>
      `${header('system')}Environment: ipython<|eot_id|>${collated(input).messages.map((m) => `${header(m.role)}${m.content}<|eot_id|>`).join('')}${header('assistant')}`,
  },
  generic: {
    text: GENERIC_TEMPLATE,
    render: (ms) => `${ms.map((m) => `<${m.role}>\n${m.content}\n`).join('')}<assistant>\n`,
  },
};
