import { readFile, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { dirname, extname, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The shop's static files, beside this file. */
const shopRoot = resolve(dirname(fileURLToPath(import.meta.url)), 'shop');

/** The polyfill's standalone build installs `document.modelContext` on pages whose browser has none. */
const polyfillPath = createRequire(import.meta.url).resolve('@mcp-b/webmcp-polyfill/iife');
const polyfillRoute = '/vendor/webmcp-polyfill.js';

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json; charset=utf-8',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
};

export interface DemoServer {
  /** For example `http://127.0.0.1:8377`. */
  origin: string;
  /** An address on the server: `url('/#/cart')`. */
  url(path?: string): string;
  /** Stops listening and drops open connections, so a test or `npm start` can exit at once. */
  close(): Promise<void>;
}

export interface DemoServerOptions {
  /** 0, the default, picks a free port. */
  port?: number;
  host?: string;
}

/** Serves the demo shop and the WebMCP polyfill over HTTP. */
export async function startDemoServer(options: DemoServerOptions = {}): Promise<DemoServer> {
  const host = options.host ?? '127.0.0.1';
  const server = createServer((request, response) => {
    handleRequest(request, response).catch((error: unknown) => {
      console.error('The demo server could not answer', request.url, error);
      if (!response.headersSent) sendText(response, 500, 'Internal server error');
      else response.destroy();
    });
  });
  await new Promise<void>((resolveListen, rejectListen) => {
    server.once('error', rejectListen);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', rejectListen);
      resolveListen();
    });
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    origin,
    url: (path = '/') => new URL(path, origin).href,
    close: () =>
      new Promise<void>((resolveClose) => {
        server.close(() => resolveClose());
        server.closeAllConnections();
      }),
  };
}

/** The demo server on `port`, or the next free port after it (any free one after twenty taken). */
export async function startDemoServerNear(port: number): Promise<DemoServer> {
  for (let candidate = port; candidate < port + 20; candidate += 1) {
    try {
      return await startDemoServer({ port: candidate });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    }
  }
  return startDemoServer();
}

async function handleRequest(request: IncomingMessage, response: ServerResponse): Promise<void> {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.setHeader('Allow', 'GET, HEAD');
    return sendText(response, 405, 'Method not allowed');
  }
  const path = filePathFor(request.url ?? '/');
  if (path === null) return sendText(response, 400, 'Bad request');
  const info = await stat(path).catch(() => null);
  if (!info?.isFile()) return sendText(response, 404, 'Not found');
  const body = await readFile(path);
  response.writeHead(200, {
    'Content-Type': contentTypes[extname(path)] ?? 'application/octet-stream',
    'Content-Length': body.length,
    // A demo under development: always serve the file as it is now.
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  });
  response.end(request.method === 'HEAD' ? undefined : body);
}

/** The file a request path names, or null when it is malformed or points outside the shop. */
export function filePathFor(requestUrl: string): string | null {
  let pathname: string;
  try {
    pathname = decodeURIComponent(new URL(requestUrl, 'http://localhost').pathname);
  } catch {
    return null;
  }
  if (pathname.includes('\0')) return null;
  if (pathname === polyfillRoute) return polyfillPath;
  const path = resolve(shopRoot, `.${pathname.endsWith('/') ? `${pathname}index.html` : pathname}`);
  return path === shopRoot || path.startsWith(shopRoot + sep) ? path : null;
}

function sendText(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' });
  response.end(text);
}
