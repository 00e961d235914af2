// Chunker configurations as short strings, for the CLI and for the documents table, which
// records the configuration each document was cut with. formatChunkerSpec is the canonical
// form: parse(format(c)) equals c, and equal configurations format identically.
import { QuireError } from '../../../../shared/errors';
import type { ChunkerConfig } from './types';

const LIMITS = {
  heading: { min: 16, max: 100_000 },
  fixed: { min: 8, max: 100_000 },
  recursive: { min: 50, max: 10_000_000 },
} as const;

const USAGE = 'expected heading:<maxTokens>, fixed:<windowTokens>/<overlap> or recursive:<chunkSize>/<overlap>';

function integer(raw: string, what: string, spec: string): number {
  if (!/^\d+$/.test(raw)) throw new QuireError('INVALID_ARGUMENT', `Bad chunker spec "${spec}": ${what} must be a whole number, got "${raw}"`);
  return Number(raw);
}

/** Throws a clear Error when a configuration is out of range; returns it unchanged otherwise. */
export function validateChunkerConfig(config: ChunkerConfig): ChunkerConfig {
  const spec = formatChunkerSpec(config);
  const size = config.kind === 'heading' ? config.maxTokens : config.kind === 'fixed' ? config.windowTokens : config.chunkSize;
  const { min, max } = LIMITS[config.kind];
  if (!Number.isInteger(size) || size < min || size > max) {
    throw new QuireError('INVALID_ARGUMENT', `Bad chunker spec "${spec}": size must be a whole number from ${min} to ${max}`);
  }
  if (config.kind !== 'heading') {
    const { overlap } = config;
    if (!Number.isInteger(overlap) || overlap < 0 || overlap >= size) {
      throw new QuireError('INVALID_ARGUMENT', `Bad chunker spec "${spec}": overlap must be a whole number from 0 to ${size - 1}`);
    }
  }
  return config;
}

/** `heading:256`, `heading` (256), `fixed:128/25`, `fixed:128` (no overlap), `recursive:1000/100`. */
export function parseChunkerSpec(spec: string): ChunkerConfig {
  const trimmed = spec.trim();
  const match = /^([a-z]+)(?::([^/]*)(?:\/(.*))?)?$/.exec(trimmed);
  if (!match) throw new QuireError('INVALID_ARGUMENT', `Bad chunker spec "${spec}": ${USAGE}`);
  const [, kind = '', size, overlap] = match;
  if (kind === 'heading') {
    if (overlap !== undefined) throw new QuireError('INVALID_ARGUMENT', `Bad chunker spec "${spec}": heading takes no overlap`);
    return validateChunkerConfig({ kind, maxTokens: size === undefined ? 256 : integer(size, 'maxTokens', spec) });
  }
  if (kind === 'fixed' || kind === 'recursive') {
    if (size === undefined) throw new QuireError('INVALID_ARGUMENT', `Bad chunker spec "${spec}": ${kind} needs a size, ${USAGE}`);
    const n = integer(size, kind === 'fixed' ? 'windowTokens' : 'chunkSize', spec);
    const o = overlap === undefined ? 0 : integer(overlap, 'overlap', spec);
    return validateChunkerConfig(
      kind === 'fixed' ? { kind, windowTokens: n, overlap: o } : { kind, chunkSize: n, overlap: o },
    );
  }
  throw new QuireError('INVALID_ARGUMENT', `Bad chunker spec "${spec}": unknown chunker "${kind}", ${USAGE}`);
}

export function formatChunkerSpec(config: ChunkerConfig): string {
  switch (config.kind) {
    case 'heading':
      return `heading:${config.maxTokens}`;
    case 'fixed':
      return `fixed:${config.windowTokens}/${config.overlap}`;
    case 'recursive':
      return `recursive:${config.chunkSize}/${config.overlap}`;
  }
}
