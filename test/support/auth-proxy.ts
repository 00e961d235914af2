/**
 * A reverse proxy that guards an Ollama (the stand-in) the way a team's proxy in front of a shared
 * GPU box does: a request without the expected header gets 401 and never reaches Ollama; one with
 * it is passed on, body streamed both ways (so NDJSON chat streams stay streams).
 *
 *   const p = await startAuthProxy({ target: standin.url, header: 'Authorization', value: 'Bearer s3cret' });
 *   p.url          "http://127.0.0.1:PORT"
 *   p.passed       paths passed on, in order
 *   p.refused      paths refused (401)
 *   p.close()
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface AuthProxy {
  readonly url: string;
  readonly passed: string[];
  readonly refused: string[];
  close(): Promise<void>;
}

export async function startAuthProxy(opts: { target: string; header: string; value: string }): Promise<AuthProxy> {
  const target = new URL(opts.target);
  const passed: string[] = [];
  const refused: string[] = [];
  const server = http.createServer((req, res) => {
    const path = req.url ?? '/';
    if (req.headers[opts.header.toLowerCase()] !== opts.value) {
      refused.push(path);
      req.resume();
      res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer' });
      res.end(JSON.stringify({ error: 'unauthorized' }));
      return;
    }
    passed.push(path);
    const headers: http.OutgoingHttpHeaders = { ...req.headers, host: target.host };
    delete headers[opts.header.toLowerCase()]; // Ollama behind it never sees the credential
    const upstream = http.request({ host: target.hostname, port: target.port, method: req.method, path, headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'bad gateway' }));
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    passed,
    refused,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
