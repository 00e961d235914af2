import { API, type Input, type MethodName, type Output } from '../../../shared/contract';
import { QuireError, toErrorShape, type QuireErrorShape } from '../../../shared/errors';

export type Handlers = { [M in MethodName]: (input: Input<M>) => Promise<Output<M>> };

export type DispatchResult = { ok: true; value: unknown } | { ok: false; error: QuireErrorShape };

/**
 * The single entry from any transport (HTTP in browser mode, IPC in Electron): the method must be
 * in the contract, its input must pass the method's schema, and so must what the engine returns.
 * Errors come back as { code, message }, never as stacks.
 */
export async function dispatch(handlers: Handlers, method: string, rawInput: unknown): Promise<DispatchResult> {
  if (!Object.hasOwn(API, method)) return { ok: false, error: { code: 'INVALID_ARGUMENT', message: `There is no method called "${method}".` } };
  const spec = API[method as MethodName];
  const parsed = spec.input.safeParse(rawInput ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    // A record's bad key is not repeated: it may be a secret typed in the wrong field (a header's name).
    const path = issue?.code === 'invalid_key' ? issue.path.slice(0, -1) : (issue?.path ?? []);
    const where = path.length ? ` (${path.join('.')})` : '';
    return { ok: false, error: { code: 'INVALID_ARGUMENT', message: `Invalid input for ${method}${where}: ${issue?.message ?? 'rejected'}` } };
  }
  try {
    const handler = handlers[method as MethodName] as (input: unknown) => Promise<unknown>;
    const value = await handler(parsed.data);
    const checked = spec.output.safeParse(value);
    if (!checked.success) {
      throw new QuireError('INTERNAL', `The engine returned a malformed ${method} result: ${checked.error.issues[0]?.message}`);
    }
    return { ok: true, value: checked.data };
  } catch (e) {
    return { ok: false, error: toErrorShape(e) };
  }
}
