import type { SetupStatus, SetupVerify } from '../../../shared/setup';

/** The states a test drives the setup steps through: the contract's four, "missing" either way. */
export type SetupCase = 'unreachable' | 'no-models' | 'chat-only' | 'embedding-only' | 'ready';

const CHAT_REC = { name: 'qwen3:4b', downloadBytes: 2_500_000_000, memoryBytes: 5_500_000_000, why: "Quire's default (2.5 GB download); it fits this computer's 16.0 GB of memory." };
const EMBED_REC = { name: 'embeddinggemma', downloadBytes: 622_000_000, memoryBytes: 1_000_000_000, why: "Quire's default (622 MB download); it fits this computer's 16.0 GB of memory." };

/** setupStatus as the engine answers it in each case, on Linux with 16 GB; `over` replaces whole fields. */
export function setupStatus(c: SetupCase, over: Partial<SetupStatus> = {}): SetupStatus {
  const up = c !== 'unreachable';
  const chat = c === 'ready' || c === 'chat-only';
  const embedding = c === 'ready' || c === 'embedding-only';
  const state = !up ? 'unreachable' : c === 'no-models' ? 'no-models' : c === 'ready' ? 'ready' : 'missing';
  return {
    state,
    platform: 'linux',
    ollama: {
      host: 'http://127.0.0.1:11434',
      hostSource: 'default',
      version: up ? '0.12.6' : null,
      error: up ? null : { code: 'OLLAMA_UNREACHABLE', message: 'connect ECONNREFUSED 127.0.0.1:11434' },
    },
    chat: { name: 'qwen3:4b', installed: chat, alternatives: [], recommended: chat ? null : CHAT_REC },
    embedding: { name: 'embeddinggemma', installed: embedding, alternatives: [], recommended: embedding ? null : EMBED_REC },
    machine: { memoryBytes: 16_000_000_000, freeDiskBytes: 120_000_000_000 },
    documents: 0,
    canAnswer: false,
    ...over,
  };
}

/** verifySetup's answer: both checks passed unless `over` says otherwise. */
export function setupVerify(over: { embedding?: Partial<SetupVerify['embedding']>; chat?: Partial<SetupVerify['chat']> } = {}): SetupVerify {
  return {
    embedding: { ok: true, ms: 45, error: null, model: 'embeddinggemma', dimension: 768, ...over.embedding },
    chat: { ok: true, ms: 1800, error: null, model: 'qwen3:4b', reply: 'Ready.', ...over.chat },
  };
}
