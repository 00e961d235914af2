/** Reasons, statuses and flags from the engine, in words (why a file was skipped: shared/skip-reasons.ts, which the CLI uses too). */

const FAIL_CODES: Record<string, string> = {
  BINARY_FILE: 'binary data, not text',
  UNDECODABLE_TEXT: 'text in an encoding Quire cannot decode',
  CORRUPT_FILE: 'a damaged file, or not the type its name says',
  TOO_LARGE: 'larger than the size limit for one file',
  PARSE_TIMEOUT: 'took too long to read, so it was stopped',
  PARSE_MEMORY: 'needed too much memory to read, so it was stopped',
  READ_FAILED: 'could not be read',
  READ_TIMEOUT: 'took too long to read',
  WRITE_FAILED: 'could not be written to the index',
};

export { skipReason } from '../../../shared/skip-reasons';

export function failReason(code: string): string {
  return FAIL_CODES[code] ?? code.toLowerCase().replace(/_/g, ' ');
}

const INJECTION: Record<string, string> = {
  instructions: 'text that gives instructions to an AI assistant',
  'role-marker': 'chat role markers or prompt delimiters',
  'invisible-characters': 'invisible characters',
  'remote-image': 'images loaded from remote websites',
};

/** "This passage contains invisible characters." Links are not among the flags: they are ordinary in notes. */
export function describeInjectionFlags(flags: readonly string[]): string | null {
  if (flags.length === 0) return null;
  const parts = flags.map((f) => INJECTION[f] ?? f);
  const list = parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
  return `This passage contains ${list}. Quire treats it as data, never as instructions.`;
}

export const ANSWER_FLAGS: Record<string, string> = {
  uncited: 'Some sentences have no citation. Check them against your documents.',
  'unknown-source': 'The answer cites a source that was not among the passages sent.',
  'unsupported-citation': 'At least one citation does not back up its sentence.',
  'truncation-suspected': 'Ollama probably cut the prompt, so some passages may not have been read.',
  'injection-in-sources': 'Some passages contain text that looks like instructions to an AI. It was treated as data.',
  'length-limit': 'The answer reached the length limit and may be cut off.',
};

export type Check = 'supported' | 'weak' | 'unsupported' | 'unknown-source';

export const CHECK_WORDS: Record<Check | 'pending', string> = {
  supported: 'supported',
  weak: 'weakly supported',
  unsupported: 'not supported',
  'unknown-source': 'unknown source',
  pending: 'not checked yet',
};


export const DOC_STATUS: Record<string, string> = {
  ready: 'ready',
  'needs-embedding': 'needs embedding',
  skipped: 'skipped',
  error: 'failed',
};
