import { ApiError } from '../../../shared/contract';
import type { ErrorCode } from '../../../shared/errors';

/** One sentence per error code, for people. The server's own message is shown under it as detail. */
type TransportCode = 'UNAUTHORIZED' | 'UNREACHABLE' | 'FORBIDDEN' | 'NOT_FOUND' | 'METHOD_NOT_ALLOWED' | 'UNSUPPORTED_MEDIA_TYPE';

export const ERROR_MESSAGES: Record<ErrorCode | TransportCode, string> = {
  OLLAMA_UNREACHABLE: 'Ollama is not running or cannot be reached. Start it with "ollama serve".',
  OLLAMA_TIMEOUT: 'Ollama took too long to answer. It may still be loading the model; try again in a moment.',
  OLLAMA_ERROR: 'Ollama reported an error.',
  MODEL_NOT_FOUND: 'That model is not installed in Ollama. Pull it in Settings first.',
  EMBED_DIMENSION_MISMATCH: 'The embedding model changed its vector size; the documents need re-embedding.',
  DB_NEWER_THAN_APP: 'The index was written by a newer version of Quire. Update Quire to open it.',
  DB_CORRUPT: 'The index file is damaged. Quire cannot read it.',
  NOT_A_FOLDER: 'That path is not a folder Quire can read.',
  COLLECTION_NOT_FOUND: 'That folder is no longer in the library.',
  NO_EMBEDDINGS: 'No documents have been embedded yet, so meaning search is not available.',
  INPUT_TOO_LONG: 'The text is longer than the embedding model can read at once, so it was not embedded.',
  CONTEXT_TOO_SMALL: 'The context window (num_ctx) is too small for the question and even one passage. Raise num_ctx in Settings.',
  NOT_A_CHAT_MODEL: 'The chosen chat model cannot chat (it is an embedding model). Choose another one in Settings.',
  WRONG_MODEL_KIND: 'That model is the wrong kind for this setting: the embedding model must be one that makes vectors (such as embeddinggemma), the chat model one that answers (such as llama3.2). Nothing was saved; choose one of the right kind.',
  READ_FAILED: 'Quire could not read the file.',
  READ_TIMEOUT: 'Reading the file took too long, so it was skipped.',
  NOT_A_REGULAR_FILE: 'That is not a file Quire can read (a named pipe, socket or device).',
  WRITE_FAILED: 'Quire could not write to its index.',
  BINARY_FILE: 'The file is binary, not text.',
  UNDECODABLE_TEXT: 'The file is not valid text in a known encoding.',
  CORRUPT_FILE: 'The file is damaged or not the type its name says, so Quire cannot read it.',
  TOO_LARGE: 'The file is larger than Quire reads.',
  PARSE_TIMEOUT: 'Reading the file took too long, so it was stopped; the rest of the folder was imported.',
  PARSE_MEMORY: 'Reading the file needed too much memory, so it was stopped; the rest of the folder was imported.',
  NO_TEXT_LAYER: 'The PDF has no text layer (scanned pages or images), and Quire does not read text in images.',
  PASSWORD_PROTECTED: 'The PDF is protected by a password. Save an unprotected copy to index it.',
  CANCELLED: 'Cancelled.',
  INVALID_ARGUMENT: 'Quire could not accept that input.',
  INVALID_QUESTION_SET: 'That question set cannot be used as it is.',
  NOT_FOUND_IN_INDEX: 'That is no longer in the index. It may have been removed or re-imported.',
  EVAL_REPORT_NOT_FOUND: 'That evaluation report no longer exists.',
  CONVERSATION_NOT_FOUND: 'That conversation no longer exists. It may have been deleted.',
  EVAL_ALREADY_RUNNING: 'An evaluation is already running. Wait for it to finish, or cancel it, first.',
  INTERNAL: 'Something went wrong inside Quire.',
  UNAUTHORIZED: 'This page is not signed in to Quire. Open the address Quire printed when it started (it includes a token).',
  UNREACHABLE: 'Quire itself cannot be reached. Is it still running?',
  FORBIDDEN: 'Quire refused a request from this page. Open Quire from the address it printed.',
  NOT_FOUND: 'This version of Quire does not know that request. Reload the page.',
  METHOD_NOT_ALLOWED: 'This version of Quire does not accept that request. Reload the page.',
  UNSUPPORTED_MEDIA_TYPE: 'This version of Quire does not accept that request. Reload the page.',
};

export function messageFor(code: string): string | null {
  return Object.hasOwn(ERROR_MESSAGES, code) ? ERROR_MESSAGES[code as keyof typeof ERROR_MESSAGES] : null;
}

export interface DescribedError {
  code: string;
  sentence: string;
  /** The boundary's own message when it adds something to the sentence. */
  detail: string | null;
}

/**
 * What a code's sentence tells a person to do, by code: where the engine's own message already
 * says it (naming the host as well), the general sentence above it would say the same thing twice.
 */
const ADVICE: Partial<Record<ErrorCode, RegExp>> = { OLLAMA_UNREACHABLE: /\bollama serve\b/i };

/**
 * Anything thrown by the client, turned into what the UI shows: the code's sentence with the
 * engine's words under it when they add something, or the engine's words alone where they only
 * say the same more exactly.
 */
export function describeError(e: unknown): DescribedError {
  const code = e instanceof ApiError ? e.code : typeof e === 'object' && e !== null && 'code' in e ? String((e as { code: unknown }).code) : 'INTERNAL';
  const raw = e instanceof Error ? e.message : typeof e === 'object' && e !== null && 'message' in e ? String((e as { message: unknown }).message) : String(e);
  const general = messageFor(code);
  if (general === null || !raw || raw === general) return { code, sentence: general ?? raw, detail: null };
  if (ADVICE[code as ErrorCode]?.test(raw)) return { code, sentence: raw, detail: null };
  return { code, sentence: general, detail: raw };
}
