// The chat templates Quire renders exactly: each text byte for byte as Ollama serves it in
// /api/show, with the renderer (chat-templates.ts) that writes what Ollama's Go text/template makes
// of the messages Quire sends. Recognition is by the whole text, never by markers: a template
// with the same markers and anything else changed (a tools block, a preamble, a date line, a
// trailing newline) renders differently, and would give a wrong count labelled exact; it is left
// to the calibrated estimate instead, labelled approximate.
//
// These are data, the text Ollama serves; Quire's renderers are its own code. Sources:
//  - "ollama/ollama@fb30760" is template/<name>.gotmpl in github.com/ollama/ollama at commit
//    fb30760996871fa9460115c753afd2c60d4ab0f7: the templates `ollama create` gives a GGUF by its
//    chat template. Their rendered outputs are template/testdata/<name>.gotmpl/* there.
//  - "library" is the template of a model pulled from the Ollama library, as `ollama show
//    --template` prints it; taken from copies of that output in public repositories, at least two
//    agreeing for each (the blob digest where a copy named it). The size is this text's, in bytes.
import type { TemplateFamily } from './chat-templates';

export interface KnownTemplate {
  /** Where the text comes from. */
  name: string;
  family: TemplateFamily;
  text: string;
}

/** llama3.2 (library, blob 966de95ca8a6, 1429 B): a system preamble with a knowledge date, tools. */
const LLAMA_3_2 = `<|start_header_id|>system<|end_header_id|>

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

/** ollama/ollama@fb30760 template/llama3-instruct.gotmpl. */
const LLAMA3_INSTRUCT = `{{- range .Messages }}<|start_header_id|>{{ .Role }}<|end_header_id|>

{{ .Content }}<|eot_id|>
{{- end }}<|start_header_id|>assistant<|end_header_id|>

`;

/** qwen2.5 (library, 1482 B): the system text lifted first, a tools block. */
const QWEN_2_5 = `{{- if .Messages }}
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

/** ollama/ollama@fb30760 template/chatml.gotmpl. */
const CHATML = `{{- range .Messages }}<|im_start|>{{ .Role }}
{{ .Content }}<|im_end|>
{{ end }}<|im_start|>assistant
`;

/** gemma3 (library, blob e0a42594d802, 358 B): system messages become user turns. */
const GEMMA_3 = `{{- range $i, $_ := .Messages }}
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

/** mistral (library, 7b v0.3, 801 B): note the space before {{ .Response }}. */
const MISTRAL = `{{- if .Messages }}
{{- range $index, $_ := .Messages }}
{{- if eq .Role "user" }}
{{- if and (eq (len (slice $.Messages $index)) 1) $.Tools }}[AVAILABLE_TOOLS] {{ $.Tools }}[/AVAILABLE_TOOLS]
{{- end }}[INST] {{ if and $.System (eq (len (slice $.Messages $index)) 1) }}{{ $.System }}

{{ end }}{{ .Content }}[/INST]
{{- else if eq .Role "assistant" }}
{{- if .Content }} {{ .Content }}
{{- else if .ToolCalls }}[TOOL_CALLS] [
{{- range .ToolCalls }}{"name": "{{ .Function.Name }}", "arguments": {{ .Function.Arguments }}}
{{- end }}]
{{- end }}</s>
{{- else if eq .Role "tool" }}[TOOL_RESULTS] {"content": {{ .Content }}} [/TOOL_RESULTS]
{{- end }}
{{- end }}
{{- else }}[INST] {{ if .System }}{{ .System }}

{{ end }}{{ .Prompt }}[/INST]
{{- end }} {{ .Response }}
{{- if .Response }}</s>
{{- end }}`;

/** phi4 (library, 275 B). */
const PHI_4 = `{{- range $i, $_ := .Messages }}
{{- $last := eq (len (slice $.Messages $i)) 1 -}}
<|im_start|>{{ .Role }}<|im_sep|>
{{ .Content }}{{ if not $last }}<|im_end|>
{{ end }}
{{- if and (ne .Role "assistant") $last }}<|im_end|>
<|im_start|>assistant<|im_sep|>
{{ end }}
{{- end }}`;

/** ollama/ollama@fb30760 template/phi-3.gotmpl. */
const PHI_3 = `{{- range .Messages }}<|{{ .Role }}|>
{{ .Content }}<|end|>
{{ end }}<|assistant|>
`;

export const KNOWN_TEMPLATES: readonly KnownTemplate[] = [
  { name: 'llama3.2 (library)', family: 'llama3.2', text: LLAMA_3_2 },
  { name: 'llama3-instruct.gotmpl', family: 'llama3', text: LLAMA3_INSTRUCT },
  { name: 'qwen2.5 (library)', family: 'qwen2.5', text: QWEN_2_5 },
  { name: 'chatml.gotmpl', family: 'chatml', text: CHATML },
  { name: 'gemma3 (library)', family: 'gemma3', text: GEMMA_3 },
  { name: 'mistral (library)', family: 'mistral', text: MISTRAL },
  { name: 'phi4 (library)', family: 'phi4', text: PHI_4 },
  { name: 'phi-3.gotmpl', family: 'phi3', text: PHI_3 },
];
