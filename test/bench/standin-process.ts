/**
 * The Ollama stand-in in a process of its own, as a real Ollama is: the benchmark's import then
 * shares no event loop or CPU time of its own process with the server answering it. Prints its
 * address as one line, then serves until stdin closes (its parent exited) or SIGTERM.
 */
import { startStandin } from '../support/ollama-standin/server';

const standin = await startStandin({ latencyMs: Number(process.env.STANDIN_LATENCY_MS ?? 0) });
process.stdout.write(`${standin.url}\n`);
const stop = () => void standin.close().then(() => process.exit(0));
process.stdin.on('end', stop).on('close', stop).resume();
process.on('SIGTERM', stop);
