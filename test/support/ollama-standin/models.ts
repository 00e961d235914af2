// The stand-in's model catalogue: what /api/tags, /api/show, /api/ps and /api/pull report, shaped
// like Ollama 0.12.6's JSON (api/types.go: ListModelResponse, ShowResponse, ProcessModelResponse).
// The numbers (sizes, parameter counts) are plausible, not copied from real manifests; what matters
// to Quire is that context_length, embedding_length, capabilities and digests behave as in Ollama.
import { createHash } from 'node:crypto';
import { TEMPLATES, type TemplateName } from './templates.js';
import { type ModelTokenizer, GENERIC_TOKENIZER, vocabularyTokenizer } from './tokens.js';
import { type VocabularyName, standinVocabulary } from './vocabularies.js';

export type Capability = 'completion' | 'tools' | 'insert' | 'vision' | 'embedding' | 'thinking';

export interface ModelSpec {
  /** Full name with tag, e.g. "llama3.2:latest". */
  name: string;
  /** GGUF general.architecture; also the prefix of the model_info keys. */
  arch: string;
  family?: string;
  capabilities: Capability[];
  contextLength: number;
  /** Vector length for embedding models (hidden size for chat models). */
  embeddingLength: number;
  parameterSize: string;
  quantization: string;
  /** Bytes on disk, as /api/tags reports. */
  size: number;
  /** Modelfile PARAMETERs; num_ctx here is the model's default context like a real Modelfile. */
  parameters?: Record<string, number | string>;
  /** false = only pullable. Default true. */
  installed?: boolean;
  modifiedAt?: string;
  /**
   * The real tokenizer and chat template the model answers with (vocabularies.ts, templates.ts);
   * absent: o200k counts and the stand-in's own "<role>" template.
   */
  vocabulary?: VocabularyName;
  /**
   * The chat template, when not the vocabulary's own: 'generic' is the stand-in's "<role>" shape,
   * which no known template matches (a model whose template Quire cannot render).
   */
  template?: TemplateName;
  /**
   * A built-in renderer Ollama would write the prompts with instead of the template (/api/show
   * "renderer"). The stand-in still renders with the template; Quire must not count exactly.
   */
  renderer?: string;
  /**
   * Real vectors from a language model run in-process (sentence-encoder.ts), served through the
   * same /api/embed as the hashed ones; absent: the stand-in's hashed n-gram vectors.
   */
  encode?: (texts: string[]) => Promise<number[][]>;
}

export const DEFAULT_MODELS: readonly ModelSpec[] = [
  {
    name: 'embeddinggemma:latest', arch: 'gemma3', capabilities: ['embedding'],
    contextLength: 2048, embeddingLength: 768, parameterSize: '307.58M', quantization: 'BF16',
    size: 621_875_417, parameters: { num_ctx: 2048 }, modifiedAt: '2025-10-02T09:00:00Z',
  },
  {
    name: 'nomic-embed-text:latest', arch: 'nomic-bert', capabilities: ['embedding'],
    contextLength: 2048, embeddingLength: 768, parameterSize: '137M', quantization: 'F16',
    size: 274_302_450, modifiedAt: '2025-10-01T09:00:00Z',
  },
  {
    name: 'llama3.2:latest', arch: 'llama', capabilities: ['completion', 'tools'],
    contextLength: 131_072, embeddingLength: 3072, parameterSize: '3.2B', quantization: 'Q4_K_M',
    size: 2_019_393_189, vocabulary: 'llama3', modifiedAt: '2025-09-30T09:00:00Z',
  },
  {
    name: 'qwen2.5:0.5b', arch: 'qwen2', capabilities: ['completion', 'tools'],
    contextLength: 32_768, embeddingLength: 896, parameterSize: '494.03M', quantization: 'Q4_K_M',
    size: 397_821_319, vocabulary: 'qwen2', modifiedAt: '2025-09-29T09:00:00Z',
  },
  {
    name: 'all-minilm:latest', arch: 'bert', capabilities: ['embedding'],
    contextLength: 512, embeddingLength: 384, parameterSize: '23M', quantization: 'F16',
    size: 45_960_996, installed: false,
  },
  {
    name: 'gemma3:1b', arch: 'gemma3', capabilities: ['completion'],
    contextLength: 32_768, embeddingLength: 1152, parameterSize: '999.89M', quantization: 'Q4_K_M',
    size: 815_319_791, vocabulary: 'gemma3', installed: false,
  },
];

// Ollama resolves "embeddinggemma" to "embeddinggemma:latest", ignores case, and treats the default
// registry/namespace as implicit, so all of these must land on the same catalogue entry.
export function canonicalName(raw: string): string {
  let n = raw.trim().toLowerCase();
  n = n.replace(/^(https?:\/\/)?registry\.ollama\.ai\//, '').replace(/^library\//, '');
  const base = n.slice(n.lastIndexOf('/') + 1);
  return base.includes(':') ? n : `${n}:latest`;
}

export function isValidName(raw: unknown): raw is string {
  return typeof raw === 'string' && /^[a-z0-9][a-z0-9._\-/:]*$/i.test(raw.trim());
}

// Includes the dimension so setDimension() changes the digest, as re-pulling a different model
// under the same name would; Quire keys its vector tables on name + digest + dimension.
export function digestOf(m: ModelSpec): string {
  const key = ['quire-standin', m.name, m.arch, m.embeddingLength, m.contextLength, m.quantization, ...(m.vocabulary ? [m.vocabulary] : [])].join('\n');
  return createHash('sha256').update(key).digest('hex');
}

export function isEmbeddingModel(m: ModelSpec): boolean {
  return m.capabilities.includes('embedding');
}

export function details(m: ModelSpec) {
  const family = m.family ?? m.arch;
  return {
    parent_model: '', format: 'gguf', family, families: [family],
    parameter_size: m.parameterSize, quantization_level: m.quantization,
  };
}

export function tagsEntry(m: ModelSpec) {
  return {
    name: m.name, model: m.name, modified_at: m.modifiedAt ?? new Date().toISOString(),
    size: m.size, digest: digestOf(m), details: details(m),
  };
}

function parameterCount(size: string): number {
  const match = /^([\d.]+)([KMB])?$/i.exec(size);
  if (!match) return 0;
  const scale = { K: 1e3, M: 1e6, B: 1e9 }[(match[2] ?? '').toUpperCase() as 'K' | 'M' | 'B'] ?? 1;
  return Math.round(Number(match[1]) * scale);
}

export function tokenizerOf(m: ModelSpec): ModelTokenizer {
  return m.vocabulary ? vocabularyTokenizer(m.vocabulary, m.template ?? m.vocabulary) : GENERIC_TOKENIZER;
}

// Ollama 0.12.6 (server/routes.go ShowHandler) sends the large tokenizer arrays only when asked
// with "verbose": true; otherwise the keys are there with null values.
const VERBOSE_ONLY = ['tokenizer.ggml.tokens', 'tokenizer.ggml.token_type', 'tokenizer.ggml.merges', 'tokenizer.ggml.scores'];

export function showBody(m: ModelSpec, verbose = false) {
  const digest = digestOf(m);
  const embedding = isEmbeddingModel(m);
  // A model with a real vocabulary shows its family's template; the rest show the shape the
  // stand-in renders them with, which is no real family's.
  const template = embedding ? '{{ .Prompt }}' : TEMPLATES[m.template ?? m.vocabulary ?? 'generic'].text;
  const params = Object.entries(m.parameters ?? {}).map(
    ([k, v]) => `${k.padEnd(30)} ${typeof v === 'string' ? JSON.stringify(v) : v}`,
  );
  const modelInfo: Record<string, unknown> = {
    'general.architecture': m.arch,
    'general.parameter_count': parameterCount(m.parameterSize),
    'general.quantization_version': 2,
    [`${m.arch}.context_length`]: m.contextLength,
    [`${m.arch}.embedding_length`]: m.embeddingLength,
    'tokenizer.ggml.model': embedding ? 'bert' : 'gpt2',
  };
  if (embedding) modelInfo[`${m.arch}.pooling_type`] = 1;
  if (m.vocabulary) {
    for (const [k, v] of Object.entries(standinVocabulary(m.vocabulary).modelInfo)) {
      modelInfo[k] = verbose || !VERBOSE_ONLY.includes(k) ? v : null;
    }
  }
  const modelfile = [
    '# Modelfile generated by "ollama show"',
    '# To build a new Modelfile based on this, replace FROM with:',
    `# FROM ${m.name}`,
    '',
    `FROM /standin/blobs/sha256-${digest}`,
    `TEMPLATE """${template}"""`,
    ...Object.entries(m.parameters ?? {}).map(([k, v]) => `PARAMETER ${k} ${v}`),
    '',
  ].join('\n');
  return {
    modelfile,
    ...(params.length ? { parameters: params.join('\n') } : {}),
    template,
    ...(m.renderer ? { renderer: m.renderer } : {}),
    details: details(m),
    model_info: modelInfo,
    capabilities: m.capabilities,
    modified_at: m.modifiedAt ?? new Date().toISOString(),
  };
}

/** Mutable catalogue: installed models plus pullable ones, keyed by canonical name. */
export class Catalogue {
  private readonly specs = new Map<string, ModelSpec>();

  constructor(specs: readonly ModelSpec[] = DEFAULT_MODELS) {
    for (const s of specs) this.add(s);
  }

  add(spec: ModelSpec): ModelSpec {
    const copy: ModelSpec = { ...spec, name: canonicalName(spec.name), capabilities: [...spec.capabilities] };
    if (copy.installed !== false && !copy.modifiedAt) copy.modifiedAt = new Date().toISOString();
    this.specs.set(copy.name, copy);
    return copy;
  }

  /** Any catalogue entry, installed or only pullable. */
  known(name: string): ModelSpec | undefined {
    return this.specs.get(canonicalName(name));
  }

  installed(name: string): ModelSpec | undefined {
    const m = this.known(name);
    return m && m.installed !== false ? m : undefined;
  }

  list(): ModelSpec[] {
    // Ollama lists the most recently modified first.
    return [...this.specs.values()]
      .filter((m) => m.installed !== false)
      .sort((a, b) => (b.modifiedAt ?? '').localeCompare(a.modifiedAt ?? ''));
  }

  install(name: string): ModelSpec | undefined {
    const m = this.known(name);
    if (m) {
      m.installed = true;
      m.modifiedAt = new Date().toISOString();
    }
    return m;
  }

  /** Uninstalls but keeps it pullable, like `ollama rm`. Returns false if it was not installed. */
  uninstall(name: string): boolean {
    const m = this.installed(name);
    if (m) m.installed = false;
    return Boolean(m);
  }

  setDimension(name: string, dim: number): ModelSpec {
    const m = this.known(name);
    if (!m) throw new Error(`stand-in: no model ${name} in the catalogue`);
    if (!Number.isInteger(dim) || dim < 1) throw new Error(`stand-in: bad dimension ${dim}`);
    m.embeddingLength = dim;
    m.modifiedAt = new Date().toISOString();
    return m;
  }
}
