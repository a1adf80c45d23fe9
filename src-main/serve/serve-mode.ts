import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { TraceApi } from '../core/api/trace-api';
import { dispatchCall } from '../api/dispatch-call';
import { BadCallError, NotFoundError } from '../core/api/call-errors';
import { CONTENT_SECURITY_POLICY } from './content-security-policy';
import { encodeAnswer } from '../core/api/typed-json';
import { HttpRefusal, busy, tooLarge } from './http-refusal';
import { receiveUpload } from './receive-upload';
import { BODY_IDLE_MS, watchStall } from './body-stall';
import { UploadStore } from './upload-store';

export interface ServeOptions {
  api: TraceApi;
  /** the built renderer (out/renderer) */
  rendererDir: string;
  port?: number;
  /** fixed token for tests; random otherwise */
  token?: string;
  /**
   * where uploads wait for the open that names them: the same store the service takes them
   * from (run-serve.ts); by default one of MAX_UPLOAD_BYTES that only this transport sees
   */
  uploads?: UploadStore;
  /** the largest API call body (default MAX_CALL_BYTES) */
  maxCallBytes?: number;
  /** how long a body may send nothing before it is dropped (default BODY_IDLE_MS) */
  bodyIdleMs?: number;
}

export interface ServeHandle {
  url: string;
  token: string;
  close(): Promise<void>;
}

/**
 * A dropped file travels as its raw bytes, one request body (`POST /api/upload`), and waits in
 * memory for the open that names it: uploads held and being received stay within this.
 * Larger traces are opened by path (`serve FILE`), read by a worker.
 */
export const MAX_UPLOAD_BYTES = 256 * 1024 * 1024;
/**
 * An API call carries no file (the largest the page sends are row-id lists and path lists):
 * its body is bounded well below an upload's.
 */
export const MAX_CALL_BYTES = 16 * 1024 * 1024;
/** Bodies above this are read one at a time (calls and uploads alike). */
const SMALL_BODY_BYTES = 1024 * 1024;
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
  const maxBodyBytes = options.maxCallBytes ?? MAX_CALL_BYTES;
  const uploads = options.uploads ?? new UploadStore(MAX_UPLOAD_BYTES);
  let bigBodyInFlight = false;
  /** Runs `read` as the one big body being received, or refuses as busy. */
  async function oneBigBody<T>(bytes: number, read: () => Promise<T>): Promise<T> {
    const big = !(bytes <= SMALL_BODY_BYTES);
    if (big && bigBodyInFlight) throw busy();
    if (big) bigBodyInFlight = true;
    try {
      return await read();
    } finally {
      if (big) bigBodyInFlight = false;
    }
  }
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => sendError(res, error));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (!isLoopbackHost(req.headers.host)) return sendText(res, 421, 'wrong host');
    if (url.pathname === '/api/call' && req.method === 'POST') {
      if (!tokenMatches(req.headers['x-trace-token'], token))
        return sendText(res, 403, 'bad token');
      const declared = Number(req.headers['content-length'] ?? NaN);
      if (declared > maxBodyBytes) throw tooLarge(maxBodyBytes, 'request');
      const text = await oneBigBody(declared, async () =>
        (await readBody(req, maxBodyBytes, options.bodyIdleMs ?? BODY_IDLE_MS)).toString('utf8'),
      );
      const body = parseCallBody(text);
      const result = await dispatchCall(options.api, body.method, body.args);
      return sendJson(res, 200, { result: result ?? null });
    }
    // a picked file's raw bytes, ahead of the `open` call that names the answered id
    if (url.pathname === '/api/upload' && req.method === 'POST') {
      // coded, as the upload's other refusals: the page shows why its file did not go
      if (!tokenMatches(req.headers['x-trace-token'], token))
        throw new HttpRefusal(403, 'serve/bad-token', 'the page does not hold the right token');
      const declared = Number(req.headers['content-length'] ?? NaN);
      const answer = await oneBigBody(declared, () =>
        receiveUpload(req, uploads, options.bodyIdleMs ?? BODY_IDLE_MS),
      );
      return sendJson(res, 200, answer);
    }
    // Cancel after the bytes arrived, before the open: they go now, not when they expire
    const dropped = /^\/api\/upload\/([\w-]{1,64})$/.exec(url.pathname);
    if (dropped && req.method === 'DELETE') {
      if (!tokenMatches(req.headers['x-trace-token'], token))
        throw new HttpRefusal(403, 'serve/bad-token', 'the page does not hold the right token');
      return sendJson(res, 200, { dropped: uploads.drop(dropped[1]) });
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
      // after a break the browser reconnects in 1 s rather than its default 3 (the page then
      // asks what it missed: events are not replayed)
      res.write(': connected\nretry: 1000\n\n');
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

/** The body of an API call: a JSON object with a method name; anything else is a 400. */
function parseCallBody(text: string): { method: string; args: unknown } {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new HttpRefusal(400, 'serve/bad-json', 'the request body is not JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new HttpRefusal(400, 'serve/bad-request', 'the request body must be an object');
  const { method, args } = body as { method?: unknown; args?: unknown };
  if (typeof method !== 'string')
    throw new HttpRefusal(400, 'serve/bad-request', 'the request names no method');
  return { method, args };
}

async function serveStatic(res: ServerResponse, root: string, pathname: string): Promise<void> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return sendJson(res, 400, {
      code: 'serve/bad-path',
      error: 'a malformed % escape in the path',
    });
  }
  const relative = pathname === '/' ? 'index.html' : decoded.replace(/^\/+/, '');
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

function readBody(req: IncomingMessage, limit: number, idleMs: number): Promise<Buffer> {
  let stopWatching = () => undefined as void;
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    // a call body that stops sending is dropped, and the big-body slot with it
    const stall = watchStall(req, idleMs, reject);
    stopWatching = stall.stop;
    req.on('data', (chunk: Buffer) => {
      stall.alive();
      size += chunk.length;
      if (size > limit) {
        reject(tooLarge(limit, 'request'));
        req.pause();
        req.removeAllListeners('data');
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  }).finally(() => stopWatching());
}

function sendError(res: ServerResponse, error: unknown): void {
  if (res.headersSent) return void res.end();
  if (error instanceof HttpRefusal) {
    // the client may still be sending: answer, then close the connection
    res.setHeader('connection', 'close');
    return sendJson(res, error.status, { code: error.code, error: error.message });
  }
  if (error instanceof BadCallError)
    return sendJson(res, 400, { code: 'serve/bad-call', error: error.message });
  if (error instanceof NotFoundError)
    return sendJson(res, 404, { code: 'serve/not-found', error: error.message });
  // the service's own refusals (e.g. "cannot compare ...") are worded for users
  sendJson(res, 500, {
    code: 'serve/call-failed',
    error: error instanceof Error ? error.message : String(error),
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  // typed arrays as their own bytes (typed-json.ts), written from the arrays without a copy
  const { contentType, parts, byteLength } = encodeAnswer(body);
  res.writeHead(status, {
    'content-type': contentType,
    'content-length': byteLength,
    'cache-control': 'no-store',
  });
  for (const part of parts) res.write(part);
  res.end();
}

function sendText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(text);
}
