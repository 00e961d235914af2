/**
 * Every error that crosses a boundary (core → CLI, main → renderer) is `{ code, message }`.
 * The code is what programs branch on; the message is for people.
 */
export const ERROR_CODES = [
  'OLLAMA_UNREACHABLE',
  'OLLAMA_TIMEOUT',
  'OLLAMA_ERROR',
  'MODEL_NOT_FOUND',
  'EMBED_DIMENSION_MISMATCH',
  'DB_NEWER_THAN_APP',
  'DB_CORRUPT',
  'NOT_A_FOLDER',
  'COLLECTION_NOT_FOUND',
  'NO_EMBEDDINGS',
  'CONTEXT_TOO_SMALL',
  // A text longer than the embedding model's context: refused rather than cut silently.
  'INPUT_TOO_LONG',
  'NOT_A_CHAT_MODEL',
  // A chat model chosen as the embedding model, or an embedding model as the chat model: refused when saved.
  'WRONG_MODEL_KIND',
  'READ_FAILED',
  'READ_TIMEOUT',
  'NOT_A_REGULAR_FILE',
  'WRITE_FAILED',
  'BINARY_FILE',
  'UNDECODABLE_TEXT',
  'CORRUPT_FILE',
  'TOO_LARGE',
  'PARSE_TIMEOUT',
  'PARSE_MEMORY',
  // PDF: no text to read (scanned pages) or a password wanted.
  'NO_TEXT_LAYER',
  'PASSWORD_PROTECTED',
  'CANCELLED',
  'INVALID_ARGUMENT',
  'INVALID_QUESTION_SET',
  'NOT_FOUND_IN_INDEX',
  'EVAL_REPORT_NOT_FOUND',
  'CONVERSATION_NOT_FOUND',
  'EVAL_ALREADY_RUNNING',
  'INTERNAL',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * The errors of talking to Ollama about a model (reaching it, its answer, the model it lacks), as
 * opposed to Quire's own: after one, a model setting can still be saved on the person's word ("Use
 * anyway", a model still to pull), and an embedding run over vectors already complete is not a failure.
 */
export const OLLAMA_ERROR_CODES: ReadonlySet<string> = new Set<ErrorCode>(['MODEL_NOT_FOUND', 'OLLAMA_UNREACHABLE', 'OLLAMA_TIMEOUT', 'OLLAMA_ERROR']);

export interface QuireErrorShape {
  code: ErrorCode;
  message: string;
}

export class QuireError extends Error implements QuireErrorShape {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'QuireError';
    this.code = code;
  }
  toJSON(): QuireErrorShape {
    return { code: this.code, message: this.message };
  }
}

export function isQuireError(e: unknown): e is QuireError {
  return e instanceof QuireError;
}

/** Turns anything thrown into the boundary shape, never leaking a stack. */
export function toErrorShape(e: unknown): QuireErrorShape {
  if (e instanceof QuireError) return { code: e.code, message: e.message };
  if (e instanceof Error && e.name === 'AbortError') return { code: 'CANCELLED', message: 'Cancelled.' };
  // SQLite found the database file damaged mid-way (better-sqlite3's SqliteError carries its code).
  const sqliteCode = e instanceof Error ? (e as Error & { code?: unknown }).code : undefined;
  if (sqliteCode === 'SQLITE_CORRUPT' || sqliteCode === 'SQLITE_NOTADB') {
    return { code: 'DB_CORRUPT', message: `The index database is damaged (SQLite: ${(e as Error).message}). Run "quire doctor" to see which file, and rebuild it from your folders.` };
  }
  return { code: 'INTERNAL', message: e instanceof Error ? e.message : String(e) };
}
