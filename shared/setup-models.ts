import { DEFAULT_CHAT_MODEL, DEFAULT_EMBED_MODEL } from './settings';
import type { RecommendedModel } from './setup';

/**
 * Well-known models of Ollama's library that first run can suggest, with what each costs. Download
 * sizes are the library's (ollama.com/library, the default tag of each); exact bytes where the
 * manifest's were read, else the size the library page rounds to. Memory is an estimate of what the
 * model takes loaded with a working context of a few thousand tokens (weights, KV cache, runtime).
 */
export interface CatalogueModel {
  name: string;
  kind: 'chat' | 'embedding';
  downloadBytes: number;
  memoryBytes: number;
  /** What sets it apart, for a list of choices. */
  note: string;
}

const GB = 1e9;
const MB = 1e6;

export const MODEL_CATALOGUE: readonly CatalogueModel[] = [
  // Chat models, smallest first.
  { name: 'qwen2.5:0.5b', kind: 'chat', downloadBytes: 397_821_319, memoryBytes: 0.8 * GB, note: 'the smallest that still answers from passages; short, plain answers' },
  { name: 'gemma3:1b', kind: 'chat', downloadBytes: 815_319_791, memoryBytes: 1.3 * GB, note: "Google's small Gemma 3" },
  { name: 'llama3.2:1b', kind: 'chat', downloadBytes: 1_321_098_329, memoryBytes: 1.8 * GB, note: 'Llama 3.2 at 1B: for computers with 4 to 8 GB of memory' },
  { name: 'qwen3:1.7b', kind: 'chat', downloadBytes: 1.4 * GB, memoryBytes: 2.2 * GB, note: 'Qwen 3 at 1.7B; thinks before it answers, so slower' },
  { name: 'llama3.2', kind: 'chat', downloadBytes: 2_019_393_189, memoryBytes: 3.2 * GB, note: "Llama 3.2 at 3B: Quire's default" },
  { name: 'qwen3:4b', kind: 'chat', downloadBytes: 2.5 * GB, memoryBytes: 4.0 * GB, note: 'Qwen 3 at 4B; strong in many languages' },
  { name: 'gemma3:4b', kind: 'chat', downloadBytes: 3.3 * GB, memoryBytes: 4.8 * GB, note: 'Gemma 3 at 4B; strong in many languages' },
  { name: 'llama3.1:8b', kind: 'chat', downloadBytes: 4.9 * GB, memoryBytes: 6.2 * GB, note: 'Llama 3.1 at 8B: better answers for 16 GB of memory or more' },
  { name: 'qwen3:8b', kind: 'chat', downloadBytes: 5.2 * GB, memoryBytes: 6.6 * GB, note: 'Qwen 3 at 8B: for 16 GB of memory or more' },
  // Embedding models, smallest first.
  { name: 'all-minilm', kind: 'embedding', downloadBytes: 45_960_996, memoryBytes: 0.1 * GB, note: 'tiny and fast; English only' },
  { name: 'nomic-embed-text', kind: 'embedding', downloadBytes: 274_302_450, memoryBytes: 0.4 * GB, note: 'small; mostly English' },
  { name: 'embeddinggemma', kind: 'embedding', downloadBytes: 621_875_417, memoryBytes: 0.7 * GB, note: "Quire's default; over 100 languages" },
  { name: 'bge-m3', kind: 'embedding', downloadBytes: 1_157_672_605, memoryBytes: 1.4 * GB, note: 'multilingual (Spanish, Portuguese and 100 more), long passages' },
];

/** What first run steps down through when the preferred model does not fit, best first. */
const LADDERS = {
  chat: [DEFAULT_CHAT_MODEL, 'llama3.2:1b', 'qwen2.5:0.5b'],
  embedding: [DEFAULT_EMBED_MODEL, 'nomic-embed-text', 'all-minilm'],
} as const;

/** Of memory, what the two models may take together: the rest is the system's and the person's other programs'. */
export const MEMORY_SHARE = 0.5;
/** Free disk left after the downloads, so a pull never fills the disk to the last byte. */
export const DISK_RESERVE_BYTES = 500 * MB;

/** A name as the catalogue spells it: `llama3.2:latest` is `llama3.2`. */
export function catalogued(name: string): CatalogueModel | null {
  const bare = name.trim().toLowerCase().replace(/:latest$/, '');
  return MODEL_CATALOGUE.find((m) => m.name === bare) ?? null;
}

/** "2.0 GB", "398 MB": sizes as Ollama's library writes them (powers of 1000). */
export function formatSize(bytes: number): string {
  if (bytes >= GB) return `${(bytes / GB).toFixed(1)} GB`;
  return `${Math.max(1, Math.round(bytes / MB))} MB`;
}

export interface MachineFacts {
  /** Total memory, bytes. */
  memoryBytes: number;
  /** Free disk where the models would go, bytes; null when unknown (then only memory decides). */
  freeDiskBytes: number | null;
}

/** One of the two models as Settings name it, and whether Ollama has it. */
export interface WantedModel {
  name: string;
  installed: boolean;
}

export interface Recommendation {
  /** Null when this one is installed, or when no model of its kind fits the disk. */
  chat: RecommendedModel | null;
  embedding: RecommendedModel | null;
}

/**
 * The chat and embedding model to pull on this machine: the ones Settings name when Quire knows
 * their size and they fit, else a step down their ladder. Both must fit together in MEMORY_SHARE of
 * the memory (an installed one counts as it is) and, the missing ones, in the free disk. The
 * embedding model is chosen first and kept as large as the smallest chat model allows: a change of
 * it later means embedding every document again, a change of chat model costs nothing.
 */
export function recommendModels(machine: MachineFacts, wanted: { chat: WantedModel; embedding: WantedModel }): Recommendation {
  const budget = machine.memoryBytes * MEMORY_SHARE;
  const disk = machine.freeDiskBytes === null ? Infinity : machine.freeDiskBytes - DISK_RESERVE_BYTES;
  const options = (kind: Kind): CatalogueModel[] => {
    const chosen = catalogued(wanted[kind].name);
    // Settings' own model counts as it is when installed (unknown size: nothing), else heads the ladder.
    if (wanted[kind].installed) return [chosen ?? { name: wanted[kind].name, kind, downloadBytes: 0, memoryBytes: 0, note: '' }];
    const ladder = LADDERS[kind].map((n) => catalogued(n)!);
    return chosen?.kind === kind ? [chosen, ...ladder.filter((m) => m.name !== chosen.name && m.memoryBytes < chosen.memoryBytes)] : ladder;
  };
  const download = (m: CatalogueModel, kind: Kind) => (wanted[kind].installed ? 0 : m.downloadBytes);
  const onDisk = (c: CatalogueModel, e: CatalogueModel) => download(c, 'chat') + download(e, 'embedding') <= disk;
  const inMemory = (c: CatalogueModel, e: CatalogueModel) => c.memoryBytes + e.memoryBytes <= budget;
  const chats = options('chat');
  const embeds = options('embedding');
  const smallestChat = chats.at(-1)!;
  // Memory is a preference (a model too large still runs, slowly); the disk is a hard limit.
  const embedding = embeds.find((e) => inMemory(smallestChat, e) && onDisk(smallestChat, e)) ?? embeds.findLast((e) => onDisk(smallestChat, e)) ?? null;
  const chat = embedding ? (chats.find((c) => inMemory(c, embedding) && onDisk(c, embedding)) ?? (onDisk(smallestChat, embedding) ? smallestChat : null)) : null;
  if (!chat || !embedding) return { chat: null, embedding: null };
  const say = (kind: Kind, m: CatalogueModel, other: CatalogueModel): RecommendedModel | null => {
    if (wanted[kind].installed) return null;
    const preferred = options(kind)[0]!;
    const [c, e] = kind === 'chat' ? [preferred, other] : [other, preferred];
    const facts: Facts = { machine, setting: wanted[kind].name, fitsMemory: inMemory(chat, embedding), preferredOnDisk: onDisk(c, e), other };
    return { name: m.name, downloadBytes: m.downloadBytes, memoryBytes: m.memoryBytes, why: why(kind, m, preferred, facts) };
  };
  return { chat: say('chat', chat, embedding), embedding: say('embedding', embedding, chat) };
}

type Kind = 'chat' | 'embedding';

interface Facts {
  machine: MachineFacts;
  /** The model Settings name. */
  setting: string;
  /** Whether the two chosen fit in memory (else they are only the smallest the disk holds). */
  fitsMemory: boolean;
  /** Whether the preferred model would have fitted the disk beside the other one. */
  preferredOnDisk: boolean;
  /** The other kind's choice. */
  other: CatalogueModel;
}

/** One sentence: why this model for this machine. */
function why(kind: Kind, m: CatalogueModel, preferred: CatalogueModel, f: Facts): string {
  const memory = `this computer's ${formatSize(f.machine.memoryBytes)} of memory`;
  const size = `${formatSize(m.downloadBytes)} download`;
  const slow = f.fitsMemory ? '' : `; even this may be slow with ${memory}`;
  if (m.name === preferred.name) {
    if (catalogued(f.setting)?.name !== m.name) {
      return `Quire's default (${size}), which fits ${memory}; Settings name ${f.setting}, whose size Quire does not know: pull that one yourself if you prefer it${slow}.`;
    }
    const lead = m.name === (kind === 'chat' ? DEFAULT_CHAT_MODEL : DEFAULT_EMBED_MODEL) ? "Quire's default" : 'The model Settings name';
    return `${lead} (${size})${f.fitsMemory ? `; it fits ${memory}` : slow}.`;
  }
  const reason = !f.preferredOnDisk
    ? `${preferred.name} (${formatSize(preferred.downloadBytes)}) would not fit in the ${formatSize(f.machine.freeDiskBytes ?? 0)} free on disk`
    : `${preferred.name} needs about ${formatSize(preferred.memoryBytes)} of memory, and with ${f.other.name} beside it that is more than half of ${memory}`;
  const tradeOff = kind === 'chat' ? 'answers are shorter and less careful, but they come' : 'search by meaning is a little less sharp';
  return `Smaller than ${preferred.name} (${size}): ${reason}; ${tradeOff}${slow}.`;
}
