import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenProgress, TraceApi } from '../../../src-main/core/api/trace-api';
import { startServeMode, type ServeHandle } from '../../../src-main/serve/serve-mode';

// The HTTP transport alone, around a recording TraceApi: what it lets through and what not.
const calls: { method: string; args: unknown[] }[] = [];
let progressListener: ((p: OpenProgress) => void) | null = null;
const api = new Proxy({} as TraceApi, {
  get(_target, method: string) {
    if (method === 'onProgress') {
      return (listener: (p: OpenProgress) => void) => {
        progressListener = listener;
        return () => (progressListener = null);
      };
    }
    if (method === 'onHostEvent') return () => () => undefined;
    return async (...args: unknown[]) => {
      calls.push({ method, args });
      return { echoed: method };
    };
  },
});

let handle: ServeHandle;
let port: number;
const sandbox = mkdtempSync(join(tmpdir(), 'te-serve-'));
const rendererDir = join(sandbox, 'renderer');
mkdirSync(rendererDir);
writeFileSync(join(rendererDir, 'index.html'), '<html>renderer</html>');
writeFileSync(join(sandbox, 'secret.txt'), 'secret');

beforeAll(async () => {
  handle = await startServeMode({ api, rendererDir, token: 'tok' });
  port = Number(new URL(handle.url).port);
});
afterAll(() => handle.close());

function call(body: unknown, headers: Record<string, string> = {}, path = '/api/call') {
  return fetch(`http://127.0.0.1:${port}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** A GET with a chosen Host header (fetch does not let us set it). */
function rawGet(path: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('serve mode', () => {
  it('listens on 127.0.0.1 only and prints a URL with the token', () => {
    expect(handle.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=tok$/);
  });

  it('refuses API calls without the right token', async () => {
    expect((await call({ method: 'listFiles', args: [] })).status).toBe(403);
    expect(
      (await call({ method: 'listFiles', args: [] }, { 'x-trace-token': 'nope' })).status,
    ).toBe(403);
    expect(calls).toHaveLength(0);
  });

  it('passes valid calls through and returns their result', async () => {
    const response = await call(
      { method: 'getRows', args: ['f1', [0, 1, 2]] },
      { 'x-trace-token': 'tok' },
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ result: { echoed: 'getRows' } });
    expect(calls.at(-1)).toEqual({ method: 'getRows', args: ['f1', [0, 1, 2]] });
  });

  it('rejects unknown methods, wrong arguments and bad JSON with 400 before any work', async () => {
    const before = calls.length;
    const auth = { 'x-trace-token': 'tok' };
    expect((await call({ method: 'constructor', args: [] }, auth)).status).toBe(400);
    expect((await call({ method: 'getRows', args: ['f1', 'x'] }, auth)).status).toBe(400);
    expect((await call({ method: 'getSpan', args: ['f1', -1, 0] }, auth)).status).toBe(400);
    expect((await call({ method: 'queryRows', args: ['f1', { sort: 'evil' }] }, auth)).status).toBe(
      400,
    );
    expect((await call('{not json', auth)).status).toBe(400);
    expect(calls.length).toBe(before);
  });

  it('serves the renderer but nothing outside its folder', async () => {
    const index = await fetch(`http://127.0.0.1:${port}/`);
    expect(await index.text()).toContain('renderer');
    expect(index.headers.get('content-security-policy')).toContain("script-src 'self'");
    const escape = await fetch(`http://127.0.0.1:${port}/..%2Fsecret.txt`);
    expect(escape.status).toBe(404);
  });

  it('refuses a foreign Host header (DNS rebinding)', async () => {
    expect(await rawGet('/', 'evil.example:80')).toBe(421);
    expect(await rawGet('/', `127.0.0.1:${port}`)).toBe(200);
  });

  it('streams progress as server-sent events to token holders', async () => {
    const denied = await fetch(`http://127.0.0.1:${port}/api/events?token=bad`);
    expect(denied.status).toBe(403);
    const controller = new AbortController();
    const response = await fetch(`http://127.0.0.1:${port}/api/events?token=tok`, {
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toBe(': connected\nretry: 1000\n\n');
    progressListener?.({
      openId: 'o',
      name: 'a.pt',
      bytesRead: 5,
      bytesTotal: 10,
      samplesRead: 1,
      phase: 'reading',
    });
    const { value } = await reader.read();
    const text = new TextDecoder().decode(value);
    expect(text).toContain('event: progress');
    expect(text).toContain('"bytesRead":5');
    controller.abort();
  });
});
