/**
 * Asks an Ollama at argv[2] for its version and embeds one text through Quire's gateway, then
 * prints {"version", "dimensions"} or {"code", "message"} as one JSON line. Run in a process of its
 * own, because NODE_EXTRA_CA_CERTS is read once, when Node starts.
 */
import { OllamaGateway } from '../../../electron/core/ollama/gateway';
import { toErrorShape } from '../../../shared/errors';

const gateway = new OllamaGateway({ host: process.argv[2]!, backoffMs: 10 });
try {
  const version = await gateway.version();
  const [vector] = await gateway.embed('embeddinggemma', ['over TLS']);
  process.stdout.write(`${JSON.stringify({ version, dimensions: vector!.length })}\n`);
} catch (e) {
  process.stdout.write(`${JSON.stringify(toErrorShape(e))}\n`);
}
