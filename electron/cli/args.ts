import { QuireError } from '../../shared/errors';

/** A numeric flag, or a clear INVALID_ARGUMENT naming the flag and the range it takes. */
export function numberFlag(name: string, value: string | undefined, range: { min: number; max: number; integer?: boolean }): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  const integer = range.integer ?? true;
  if (value.trim() === '' || !Number.isFinite(n) || (integer && !Number.isInteger(n)) || n < range.min || n > range.max) {
    throw new QuireError('INVALID_ARGUMENT', `--${name} takes ${integer ? 'a whole number' : 'a number'} from ${range.min} to ${range.max}, not "${value}".`);
  }
  return n;
}
