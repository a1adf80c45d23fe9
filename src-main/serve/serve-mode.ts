import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { TraceApi } from '../core/api/trace-api';
import { dispatchCall } from '../api/dispatch-call';
import { BadCallError, NotFoundError } from '../core/api/call-errors';
import { CONTENT_SECURITY_POLICY } from './content-security-policy';
import { typedReplacer } from '../core/api/typed-json';

export interface ServeOptions {
  api: TraceApi;
  /** the built renderer (out/renderer) */
  rendererDir: string;
  port?: number;
  /** fixed token for tests; random otherwise */
  token?: string;
}

export interface ServeHandle {
  url: string;
  token: string;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 768 * 1024 * 1024;
const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};

/**
 * The same TraceApi over HTTP, for remote machines and for end-to-end tests in Chromium.
 * Bound to 127.0.0.1 only; every API call carries a random token from the printed URL so
 * other local users cannot read the files; the Host header must be loopback (DNS rebinding).
 */
export async function startServeMode(options: ServeOptions): Promise<ServeHandle> {
  const token = options.token ?? randomBytes(18).toString('base64url');
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => sendError(res, error));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (!isLoopbackHost(req.headers.host)) return sendText(res, 421, 'wrong host');
    if (url.pathname === '/api/call' && req.method === 'POST') {
      if (!tokenMatches(req.headers['x-trace-token'], token))
        return sendText(res, 403, 'bad token');
      const body = JSON.parse((await readBody(req)).toString('utf8')) as {
        method: unknown;
        args: unknown;
      };
      const result = await dispatchCall(options.api, body.method, body.args);
      return sendJson(res, 200, { result: result ?? null });
    }
    if (url.pathname === '/api/events' && req.method === 'GET') {
      if (!tokenMatches(url.searchParams.get('token') ?? undefined, token)) {
        return sendText(res, 403, 'bad token');
      }
      res.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-store',
        connection: 'keep-alive',
      });
      res.write(': connected\n\n');
      const offProgress = options.api.onProgress((progress) => {
        res.write(`event: progress\ndata: ${JSON.stringify(progress)}\n\n`);
      });
      const offHost = options.api.onHostEvent((event) => {
        res.write(`event: host\ndata: ${JSON.stringify(event)}\n\n`);
      });
      req.on('close', () => {
        offProgress();
        offHost();
      });
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return sendText(res, 405, 'method not allowed');
    return serveStatic(res, options.rendererDir, url.pathname);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    token,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function isLoopbackHost(host: string | undefined): boolean {
  if (!host) return false;
  const name = host.replace(/:\d+$/, '');
  return name === '127.0.0.1' || name === 'localhost' || name === '[::1]';
}

function tokenMatches(given: string | string[] | undefined, token: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

async function serveStatic(res: ServerResponse, root: string, pathname: string): Promise<void> {
  const relative =
    pathname === '/' ? 'index.html' : decodeURIComponent(pathname).replace(/^\/+/, '');
  const full = normalize(join(root, relative));
  if (!full.startsWith(normalize(root) + sep)) return sendText(res, 404, 'not found');
  let body: Buffer;
  try {
    body = await readFile(full);
  } catch {
    return sendText(res, 404, 'not found');
  }
  res.writeHead(200, {
    'content-type': MIME[extname(full)] ?? 'application/octet-stream',
    'content-security-policy': CONTENT_SECURITY_POLICY,
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-store',
  });
  res.end(body);
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new BadCallError('request too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function sendError(res: ServerResponse, error: unknown): void {
  const status =
    error instanceof BadCallError || error instanceof SyntaxError
      ? 400
      : error instanceof NotFoundError
        ? 404
        : 500;
  if (res.headersSent) return void res.end();
  sendJson(res, status, { error: error instanceof Error ? error.message : String(error) });
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body, typedReplacer));
}

function sendText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(text);
}
