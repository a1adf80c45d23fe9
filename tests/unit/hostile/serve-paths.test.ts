import { copyFileSync, mkdtempSync, rmSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TraceService } from '../../../src-main/api/trace-service';
import { namedPathsPolicy } from '../../../src-main/api/path-policy';
import { startServeMode, type ServeHandle } from '../../../src-main/serve/serve-mode';
import { FORMATS } from '../../../src-main/core/formats/registry';
import { ingestInThread } from '../../support/in-thread-ingest';
import { OTLP } from '../../support/fixtures';

// Issue 19 case 6 and 12: serve mode opens by path only what it was started with, bounds
// request bodies, and answers malformed requests with 400 and a code.
const sandbox = mkdtempSync(join(tmpdir(), 'te-serve-paths-'));
const allowed = join(sandbox, 'allowed');
const outside = join(sandbox, 'outside');
const rendererDir = join(sandbox, 'renderer');
let handle: ServeHandle;
let port: number;

beforeAll(async () => {
  for (const d of [allowed, outside, rendererDir]) mkdirSync(d);
  writeFileSync(join(rendererDir, 'index.html'), '<html></html>');
  copyFileSync(join(OTLP, 'sglang_otel_trace.json'), join(allowed, 'named.json'));
  copyFileSync(join(OTLP, 'sglang_otel_trace.json'), join(outside, 'secret.json'));
  // a link inside the allowed folder that leads outside it
  symlinkSync(join(outside, 'secret.json'), join(allowed, 'link.json'));
  const api = new TraceService(
    ingestInThread(FORMATS),
    null,
    namedPathsPolicy([join(allowed, 'named.json')], []),
  );
  handle = await startServeMode({ api, rendererDir, token: 'tok', maxCallBytes: 64 * 1024 });
  port = Number(new URL(handle.url).port);
});
afterAll(async () => {
  await handle.close();
  rmSync(sandbox, { recursive: true, force: true });
});

async function call(body: string) {
  const response = await fetch(`http://127.0.0.1:${port}/api/call`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-trace-token': 'tok' },
    body,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const openPath = (path: string) =>
  call(
    JSON.stringify({ method: 'open', args: [{ openId: 'o', sources: [{ kind: 'path', path }] }] }),
  );

describe('serve mode opens by path only what it was started with', () => {
  it('the named file opens', async () => {
    const { status, body } = await openPath(join(allowed, 'named.json'));
    expect(status).toBe(200);
    expect((body.result as { ok: boolean }).ok).toBe(true);
  });

  it('a file outside answers exactly as a missing file does', async () => {
    const forbidden = await openPath(join(outside, 'secret.json'));
    const missing = await openPath(join(sandbox, 'nowhere', 'secret.json'));
    expect(forbidden).toEqual(missing);
    expect(forbidden.body.result).toEqual({
      ok: false,
      error: { code: 'io/not-found', message: 'no such file', fileName: 'secret.json' },
    });
    // a file that exists on every machine: still "no such file"
    const shadow = await openPath('/etc/passwd');
    expect((shadow.body.result as { error: { code: string } }).error.code).toBe('io/not-found');
  });

  it('a sibling of the named file and a link leading outside are refused too', async () => {
    for (const path of [join(allowed, 'link.json'), allowed]) {
      const { body } = await openPath(path);
      expect((body.result as { ok: boolean }).ok).toBe(false);
    }
  });

  it('--root folders open everything under them (the policy alone)', () => {
    const policy = namedPathsPolicy([], [outside]);
    expect(policy.allows(join(outside, 'secret.json'))).toBe(true);
    expect(policy.allows(join(allowed, 'named.json'))).toBe(false);
    expect(policy.allows(`${outside}-evil/secret.json`)).toBe(false);
  });

  it('an upload still opens', async () => {
    const text = '{"resourceSpans":[]}\n';
    const { body } = await call(
      JSON.stringify({
        method: 'open',
        args: [
          {
            openId: 'u',
            sources: [
              {
                kind: 'bytes',
                name: 'up.jsonl',
                bytesBase64: Buffer.from(text).toString('base64'),
              },
            ],
          },
        ],
      }),
    );
    expect((body.result as { ok: boolean }).ok).toBe(true);
  });
});

describe('serve mode bounds and checks requests', () => {
  it('a call body larger than a call needs answers 413 with a code', async () => {
    const { status, body } = await call(
      JSON.stringify({ method: 'listFiles', args: ['x'.repeat(200_000)] }),
    );
    expect(status).toBe(413);
    expect(body.code).toBe('serve/too-large');
  });

  it('a null body, a non-object and a body without a method answer 400 with a code', async () => {
    for (const text of ['null', '[1]', '{"args":[]}', '{not json']) {
      const { status, body } = await call(text);
      expect(status).toBe(400);
      expect(['serve/bad-request', 'serve/bad-json']).toContain(body.code);
    }
  });

  it('a malformed % escape in a path answers 400, not 500', async () => {
    const response = await fetch(`http://127.0.0.1:${port}/%E0%A4%A`);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { code: string }).code).toBe('serve/bad-path');
  });
});
