import { z } from 'zod';
import { ErrorShape } from './common-schemas';

/**
 * First run: what stands between a person and their first answer, read from Ollama and this
 * machine. The app's welcome and `quire setup` both decide from this one answer.
 *
 * - unreachable: Ollama does not answer at the host (not installed, or not running).
 * - no-models: it answers but has no model at all.
 * - missing: it has models, but not the chat model or the embedding model Settings name.
 * - ready: both are installed; answers can be given.
 */
export const SETUP_STATES = ['unreachable', 'no-models', 'missing', 'ready'] as const;
export type SetupState = (typeof SETUP_STATES)[number];

/** The operating systems whose install steps Quire can name; other: Ollama's download page. */
export const SETUP_PLATFORMS = ['linux', 'darwin', 'win32', 'other'] as const;

/** A model Quire suggests pulling: its size on disk once downloaded, and why it fits. */
export const RecommendedModelSchema = z.object({
  name: z.string(),
  /** The download, in bytes (what `ollama pull` fetches). */
  downloadBytes: z.number(),
  /** Memory it needs to run, in bytes (weights plus a working context). */
  memoryBytes: z.number(),
  /** One sentence: why this one for this machine. */
  why: z.string(),
});
export type RecommendedModel = z.infer<typeof RecommendedModelSchema>;

/** One of the two models Quire needs, as Settings name it. */
export const SetupModelSchema = z.object({
  /** The model Settings name (chatModel or embedModel). */
  name: z.string(),
  installed: z.boolean(),
  /** Installed models of this kind Quire could use instead (by Ollama's capabilities). */
  alternatives: z.array(z.string()),
  /** The model suggested for this machine, when this one is missing. */
  recommended: RecommendedModelSchema.nullable(),
});

export const SetupStatusSchema = z.object({
  state: z.enum(SETUP_STATES),
  platform: z.enum(SETUP_PLATFORMS),
  ollama: z.object({
    host: z.string(),
    /** Where the host came from: the saved setting, OLLAMA_HOST, or the default. */
    hostSource: z.enum(['saved', 'environment', 'default']),
    version: z.string().nullable(),
    /** Why it could not be used, when it could not (unreachable, timeout, certificate…). */
    error: ErrorShape.nullable(),
  }),
  chat: SetupModelSchema,
  embedding: SetupModelSchema,
  machine: z.object({
    /** Total memory, bytes. */
    memoryBytes: z.number(),
    /** Free disk where Ollama keeps models when it is this computer (else where Quire's data is), bytes; null when unknown. */
    freeDiskBytes: z.number().nullable(),
  }),
  /** Documents indexed: first run offers an import when there are none. */
  documents: z.number(),
  /** What a question can get now: an answer, only keyword search (no chat model), or nothing (no documents). */
  canAnswer: z.boolean(),
});
export type SetupStatus = z.infer<typeof SetupStatusSchema>;

/** One check of verifySetup: it worked, how long it took, and what went wrong if not. */
const SetupCheckSchema = z.object({ ok: z.boolean(), ms: z.number(), error: ErrorShape.nullable() });

/** verifySetup: one embedding and one short answer through the same gateway the app uses. */
export const SetupVerifySchema = z.object({
  embedding: SetupCheckSchema.extend({ model: z.string(), dimension: z.number().nullable() }),
  chat: SetupCheckSchema.extend({ model: z.string(), reply: z.string().nullable() }),
});
export type SetupVerify = z.infer<typeof SetupVerifySchema>;
