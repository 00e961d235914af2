import { API, type Input, type MethodName } from '../../shared/contract';
import { QuireError } from '../../shared/errors';

/** A numeric flag, or a clear INVALID_ARGUMENT naming the flag; the range is checked by the contract's schema. */
export function numberFlag(name: string, value: string | undefined, options: { integer?: boolean } = {}): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || ((options.integer ?? true) && !Number.isInteger(n))) {
    throw new QuireError('INVALID_ARGUMENT', `--${name} takes ${(options.integer ?? true) ? 'a whole number' : 'a number'}, not "${value}".`);
  }
  return n;
}

/**
 * The flags of a command, as the contract method's input: validated by the same zod schema the UI's
 * calls pass, so the CLI's limits are the app's. `flags` maps input fields to the flag that set
 * them, so an error names what the person typed.
 */
export function contractInput<M extends MethodName>(method: M, input: Record<string, unknown>, flags: Record<string, string> = {}): Input<M> {
  const defined = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
  const parsed = API[method].input.safeParse(defined);
  if (parsed.success) return parsed.data as Input<M>;
  const issue = parsed.error.issues[0]!;
  const field = String(issue.path[0] ?? '');
  const flag = flags[field] ?? field;
  const range = describeRange(issue);
  throw new QuireError('INVALID_ARGUMENT', `${flag.startsWith('--') || field === '' ? flag : `--${flag}`} ${range ?? `: ${issue.message}`}${range ? `, not ${JSON.stringify(defined[field])}` : ''}.`.replace(' :', ':'));
}

function describeRange(issue: { code: string; minimum?: unknown; maximum?: unknown }): string | null {
  if (issue.code === 'too_small' && typeof issue.minimum === 'number') return `takes at least ${issue.minimum.toLocaleString('en')}`;
  if (issue.code === 'too_big' && typeof issue.maximum === 'number') return `takes at most ${issue.maximum.toLocaleString('en')}`;
  return null;
}
