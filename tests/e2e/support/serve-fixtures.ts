import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, resolve, sep } from 'node:path';

export interface FixtureServer {
  origin: string;
  url(path: string): string;
  close(): Promise<void>;
}

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
};

/**
 * Serves a folder on 127.0.0.1 (a secure context, as WebMCP needs) at a free port. `routes` maps
 * extra URL paths to files elsewhere (a polyfill from node_modules). `close` ends every connection.
 */
export async function serveFixtures(dir: string, routes: Record<string, string> = {}): Promise<FixtureServer> {
  const root = resolve(dir);
  const server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname);
    const file = routes[path] ?? resolve(root, `.${path.endsWith('/') ? `${path}index.html` : path}`);
    const inside = path in routes || file.startsWith(root + sep);
    if (!inside || !existsSync(file) || !statSync(file).isFile()) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    // A page named `sandboxed.html` is served as a sandboxed document, whose origin is opaque ("null").
    const sandbox = file.endsWith(`${sep}sandboxed.html`) ? { 'content-security-policy': 'sandbox allow-scripts' } : {};
    response.writeHead(200, { 'content-type': contentTypes[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store', ...sandbox });
    createReadStream(file).pipe(response);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    url: (path) => new URL(path, `${origin}/`).href,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
