import { QuireError } from '../../../shared/errors';
import { OllamaHeadersSchema, type OllamaHeaders } from '../../../shared/settings';

/**
 * Request headers written as a JSON object of strings (QUIRE_OLLAMA_HEADERS, or as stored), checked
 * by the shared schema. A refusal names where they came from and what is wrong, never a value: an
 * Authorization header's value is a password.
 */
export function parseHeadersJson(text: string | undefined, source: string): OllamaHeaders {
  if (text === undefined || text.trim() === '') return {};
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new QuireError('INVALID_ARGUMENT', `${source} must be a JSON object of header names and string values, e.g. {"Authorization": "Bearer …"}.`);
  }
  return checkHeaders(raw, source);
}

/** Headers from any source, or INVALID_ARGUMENT naming the header (its name, never its value). */
export function checkHeaders(raw: unknown, source: string): OllamaHeaders {
  const parsed = OllamaHeadersSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  // A bad name is not repeated (a value pasted where the name goes would be); a bad value's name is.
  if (issue.code === 'invalid_key') throw new QuireError('INVALID_ARGUMENT', `${source}: ${issue.issues[0]?.message ?? 'a header name is not valid'}.`);
  const name = issue.path[0];
  const what = issue.code === 'invalid_type' ? 'must be a JSON object of header names and string values' : issue.message;
  throw new QuireError('INVALID_ARGUMENT', `${source}${typeof name === 'string' ? ` (header ${name})` : ''}: ${what}.`);
}
