// HTTP plumbing shaped after Ollama's Go server (gin): JSON errors as {"error": "..."}, NDJSON
// streams, and the request-body errors gin produces before a handler runs.
import type http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

export class HttpError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

export function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  if (res.destroyed) return;
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

export function sendText(res: http.ServerResponse, status: number, text: string): void {
  if (res.destroyed) return;
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' });
  res.end(text);
}

export async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export type Json = Record<string, unknown>;

// Gin's ShouldBindJSON: an empty body is "missing request body"; anything not a JSON object is a
// 400 with the decoder's message (Go's exact wording is not reproduced).
export function requireObject(raw: string): Json {
  if (!raw.trim()) throw new HttpError(400, 'missing request body');
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch (e) {
    throw new HttpError(400, (e as Error).message);
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new HttpError(400, 'json: cannot unmarshal into request object');
  return v as Json;
}

// keep_alive: seconds as a number, or a Go duration string ("5m", "1h30m", "-1"); <0 = forever.
export function keepAliveMs(v: unknown): number {
  if (v === undefined || v === null) return 5 * 60_000;
  if (typeof v === 'number') return v < 0 ? Infinity : v * 1000;
  const s = String(v).trim();
  if (/^-?\d+(\.\d+)?$/.test(s)) return Number(s) < 0 ? Infinity : Number(s) * 1000;
  const unit: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  let total = 0;
  for (const m of s.matchAll(/(-?\d+(?:\.\d+)?)(ms|s|m|h)/g)) total += Number(m[1]) * (unit[m[2]!] ?? 0);
  return total < 0 ? Infinity : total;
}

// Streams NDJSON lines; stops quietly once the client has gone (abort or Ollama "down").
export async function streamNdjson(
  res: http.ServerResponse,
  lines: AsyncIterable<Json> | Iterable<Json>,
  delayMs: () => number,
): Promise<void> {
  let first = true;
  for await (const line of lines) {
    if (res.destroyed || res.writableEnded) return;
    if (!first && delayMs() > 0) await sleep(delayMs());
    if (res.destroyed) return;
    if (first) res.writeHead(200, { 'Content-Type': 'application/x-ndjson' });
    first = false;
    res.write(`${JSON.stringify(line)}\n`);
  }
  if (!res.destroyed) res.end();
}
