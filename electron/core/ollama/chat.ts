import { QuireError } from '../../../shared/errors';
import { isRetryable, mapOllamaError } from './errors';
import type { OllamaGateway } from './gateway';
import { withTag } from './gateway';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatOptions {
  /** Always sent: Ollama's default (4096 on most machines) silently cuts longer prompts. */
  numCtx: number;
  temperature: number;
  seed: number;
  numPredict: number;
}

export interface ChatStats {
  doneReason: string | null;
  promptEvalCount: number | null;
  evalCount: number | null;
  totalDurationNs: number | null;
  loadDurationNs: number | null;
  promptEvalDurationNs: number | null;
  evalDurationNs: number | null;
}

export type ChatEvent = { type: 'delta'; text: string } | { type: 'done'; content: string; stats: ChatStats };

export interface StreamTimeouts {
  /** Until the first token: loading a model from disk can take minutes. */
  firstTokenMs?: number;
  /** Between tokens once it is talking. */
  idleMs?: number;
}

/**
 * Streams one /api/chat reply. A connection failure before anything arrived is retried once;
 * once tokens flow, a stall longer than idleMs or the caller's signal ends it. The final event
 * carries Ollama's own counters (prompt_eval_count is how we learn it cut the prompt).
 */
export async function* streamChat(
  gateway: OllamaGateway,
  model: string,
  messages: readonly ChatMessage[],
  options: ChatOptions,
  signal?: AbortSignal,
  timeouts: StreamTimeouts = {},
): AsyncGenerator<ChatEvent> {
  const name = withTag(model);
  const firstTokenMs = timeouts.firstTokenMs ?? 300_000;
  const idleMs = timeouts.idleMs ?? 60_000;
  let content = '';
  let started = false;
  for (let attempt = 0; ; attempt++) {
    signal?.throwIfAborted();
    const stall = new AbortController();
    let timer = setTimeout(() => stall.abort(new DOMException('no token in time', 'TimeoutError')), firstTokenMs);
    const combined = signal ? AbortSignal.any([signal, stall.signal]) : stall.signal;
    const client = gateway.client(combined);
    try {
      const stream = await client.chat({
        model: name,
        messages: messages.map((m) => ({ role: m.role, content: m.content })),
        stream: true,
        options: { num_ctx: options.numCtx, temperature: options.temperature, seed: options.seed, num_predict: options.numPredict },
      });
      for await (const part of stream) {
        clearTimeout(timer);
        timer = setTimeout(() => stall.abort(new DOMException('stalled', 'TimeoutError')), idleMs);
        const text = part.message?.content ?? '';
        if (text) {
          started = true;
          content += text;
          yield { type: 'delta', text };
        }
        if (part.done) {
          yield { type: 'done', content, stats: statsOf(part as unknown as Record<string, unknown>) };
          return;
        }
      }
      throw new QuireError('OLLAMA_ERROR', 'Ollama closed the reply before it was done.');
    } catch (e) {
      if (signal?.aborted) throw new QuireError('CANCELLED', 'Cancelled.', { cause: e });
      const cause = stall.signal.aborted ? stall.signal.reason : e;
      const mapped = mapOllamaError(cause, { host: gateway.host, hostSource: gateway.hostSource, model: name, timeoutMs: started ? idleMs : firstTokenMs });
      if (started || attempt >= 1 || mapped.code === 'CANCELLED' || !isRetryable(mapped)) throw mapped;
    } finally {
      clearTimeout(timer);
      // Ends the HTTP request if we stopped early (the consumer left): Ollama stops generating.
      stall.abort(new DOMException('reply no longer needed', 'AbortError'));
    }
  }
}

/** A whole reply at once (for short internal calls such as rewriting a follow-up question). */
export async function completeChat(
  gateway: OllamaGateway,
  model: string,
  messages: readonly ChatMessage[],
  options: ChatOptions,
  signal?: AbortSignal,
): Promise<{ content: string; stats: ChatStats }> {
  for await (const event of streamChat(gateway, model, messages, options, signal)) {
    if (event.type === 'done') return { content: event.content, stats: event.stats };
  }
  throw new QuireError('OLLAMA_ERROR', 'Ollama ended the reply without a final message.');
}

function statsOf(p: Record<string, unknown>): ChatStats {
  const n = (k: string) => (typeof p[k] === 'number' ? (p[k] as number) : null);
  return {
    doneReason: typeof p.done_reason === 'string' ? p.done_reason : null,
    promptEvalCount: n('prompt_eval_count'),
    evalCount: n('eval_count'),
    totalDurationNs: n('total_duration'),
    loadDurationNs: n('load_duration'),
    promptEvalDurationNs: n('prompt_eval_duration'),
    evalDurationNs: n('eval_duration'),
  };
}
