/**
 * Asks an Ollama at argv[2] for its version, embeds one text and streams one chat reply through
 * Quire's gateway, then prints {"version", "dimensions", "deltas", "doneReason"} or
 * {"code", "message"} as one JSON line. Run in a process of its
 * own, because NODE_EXTRA_CA_CERTS is read once, when Node starts.
 */
import { streamChat } from '../../../electron/core/ollama/chat';
import { OllamaGateway } from '../../../electron/core/ollama/gateway';
import { toErrorShape } from '../../../shared/errors';

const gateway = new OllamaGateway({ host: process.argv[2]!, backoffMs: 10 });
try {
  const version = await gateway.version();
  const [vector] = await gateway.embed('embeddinggemma', ['over TLS']);
  let deltas = 0;
  let doneReason: string | null = null;
  const messages = [{ role: 'user' as const, content: 'Say something about TLS, please.' }];
  for await (const event of streamChat(gateway, 'llama3.2', messages, { numCtx: 2048, temperature: 0, seed: 1, numPredict: 32 })) {
    if (event.type === 'delta') deltas++;
    else doneReason = event.stats.doneReason;
  }
  process.stdout.write(`${JSON.stringify({ version, dimensions: vector!.length, deltas, doneReason })}\n`);
} catch (e) {
  process.stdout.write(`${JSON.stringify(toErrorShape(e))}\n`);
}
