import { toErrorShape } from '../../../shared/errors';
import type { Output } from '../../../shared/contract';
import type { OllamaGateway } from './gateway';
import { isLoopbackHost } from './host';

/** As the contract's status carries it. */
export type OllamaState = Output<'status'>['ollama'];

/** Whether Ollama answers at the gateway's host, as the status bar and `quire status` both say it. */
export async function ollamaState(g: OllamaGateway): Promise<OllamaState> {
  let version: string | null = null;
  let error: { code: string; message: string } | null = null;
  try {
    version = await g.version(AbortSignal.timeout(2000));
  } catch (e) {
    error = toErrorShape(e);
  }
  return { host: g.host, connected: version !== null, version, error: error?.message ?? null, errorCode: error?.code ?? null, remote: !isLoopbackHost(g.host), headers: [...g.headerNames] };
}
