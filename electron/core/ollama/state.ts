import { toErrorShape } from '../../../shared/errors';
import type { Output } from '../../../shared/contract';
import type { OllamaGateway } from './gateway';
import { isLoopbackHost } from './host';

/** As the contract's status carries it. */
export type OllamaState = Output<'status'>['ollama'];

/** Whether Ollama answers at the gateway's host, as the status bar and `quire status` both say it. */
export async function ollamaState(g: OllamaGateway): Promise<OllamaState> {
  let version: string | null = null;
  let error: string | null = null;
  try {
    version = await g.version(AbortSignal.timeout(2000));
  } catch (e) {
    error = toErrorShape(e).message;
  }
  return { host: g.host, connected: version !== null, version, error, remote: !isLoopbackHost(g.host), headers: [...g.headerNames] };
}
