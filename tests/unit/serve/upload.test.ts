import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type ClientRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TraceService } from '../../../src-main/api/trace-service';
import type { OpenResult, RowView } from '../../../src-main/core/api/trace-api';
import { FORMATS } from '../../../src-main/core/formats/registry';
import { startServeMode, type ServeHandle } from '../../../src-main/serve/serve-mode';
import { UploadStore } from '../../../src-main/serve/upload-store';
import { ingestInThread } from '../../support/in-thread-ingest';
import { SLIME } from '../../support/fixtures';
import type { IngestRequest } from '../../../src-main/ingest/ingest-protocol';
import { decodeAnswer } from '../../../src-main/core/api/typed-json';

// Serve mode's binary upload (POST /api/upload) with the real service and ingest session: a
// picked file's raw bytes, then an open that names them.
const sandbox = mkdtempSync(join(tmpdir(), 'te-upload-'));
const rendererDir = join(sandbox, 'renderer');
mkdirSync(rendererDir);
writeFileSync(join(rendererDir, 'index.html'), '<html></html>');
const SMALL = resolve(SLIME, 'rollout_small.pt');
const MiB = 1024 * 1024;

const servers: ServeHandle[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  rmSync(sandbox, { recursive: true, force: true });
});

/** A serve mode whose service takes uploads from `store`, as run-serve.ts builds it. */
async function serveWith(store: UploadStore, bodyIdleMs?: number) {
  // what the service hands each file's worker, kept for the test to look at
  const requests: IngestRequest[] = [];
  const ingest = ingestInThread(FORMATS);
  const api = new TraceService(
    (request, ...rest) => {
      requests.push(request);
      return ingest(request, ...rest);
    },
    null,
    null,
    store,
  );
  const handle = await startServeMode({
    api,
    rendererDir,
    token: 'tok',
    uploads: store,
    bodyIdleMs,
  });
  servers.push(handle);
  const base = `http://127.0.0.1:${new URL(handle.url).port}`;
  const upload = async (body: Buffer, headers: Record<string, string> = {}) => {
    const response = await fetch(`${base}/api/upload`, {
      method: 'POST',
      headers: { 'x-trace-token': 'tok', 'x-trace-file-name': 'rollout_small.pt', ...headers },
      body,
    });
    const text = await response.text();
    return { status: response.status, body: JSON.parse(text) as Record<string, unknown> };
  };
  const call = async (method: string, args: unknown[]) => {
    const response = await fetch(`${base}/api/call`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-trace-token': 'tok' },
      body: JSON.stringify({ method, args }),
    });
    const body = decodeAnswer(
      response.headers.get('content-type'),
      await response.arrayBuffer(),
    ) as { result: unknown; code?: string };
    return { status: response.status, body };
  };
  const openUpload = async (uploadId: string) =>
    (await call('open', [{ openId: `o-${uploadId}`, sources: [{ kind: 'upload', uploadId }] }]))
      .body.result as OpenResult;
  return { base, upload, call, openUpload, requests };
}

/** An upload request left open: its headers and `sent` bytes go, the rest never does. */
function startedUpload(base: string, declared: number, sent: number): Promise<ClientRequest> {
  return new Promise((resolveStarted, reject) => {
    const url = new URL(`${base}/api/upload`);
    const req = httpRequest({
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      method: 'POST',
      headers: {
        'x-trace-token': 'tok',
        'x-trace-file-name': 'slow.pt',
        'content-length': String(declared),
      },
    });
    req.on('error', () => {}); // destroyed by the test
    req.write(Buffer.alloc(sent), (error) => (error ? reject(error) : resolveStarted(req)));
  });
}

const until = async (done: () => boolean) => {
  for (let i = 0; i < 200 && !done(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(done()).toBe(true);
};

describe('POST /api/upload', () => {
  it('an upload opened by its id gives the rows opening by path gives; the bytes are taken once', async () => {
    const store = new UploadStore(4 * MiB);
    const { upload, call, openUpload, requests } = await serveWith(store);
    const bytes = readFileSync(SMALL);
    const sent = await upload(bytes);
    expect(sent.status).toBe(200);
    expect(sent.body.bytes).toBe(171707);
    expect(sent.body.uploadId).toMatch(/^[0-9a-f-]{36}$/);
    expect(store.bytesHeld).toBe(171707);

    const uploaded = await openUpload(sent.body.uploadId as string);
    const byPath = (await call('open', [{ openId: 'p', sources: [{ kind: 'path', path: SMALL }] }]))
      .body.result as OpenResult;
    if (!uploaded.ok || !byPath.ok) throw new Error('both must open');
    // 16 samples, 171707 bytes (tests/fixtures/slime/README.md); the name came with the upload
    expect(uploaded.file).toMatchObject({
      name: 'rollout_small.pt',
      path: null,
      format: 'slime',
      samples: 16,
      rows: 16,
      bytes: 171707,
    });
    expect(store.bytesHeld).toBe(0);
    const ids = Array.from({ length: 16 }, (_, i) => i);
    const rowsOf = async (fileId: string) =>
      (await call('getRows', [fileId, ids])).body.result as RowView[];
    const uploadedRows = await rowsOf(uploaded.file.fileId);
    expect(uploadedRows.map((r) => r.rowId)).toEqual(ids);
    expect(uploadedRows).toEqual(await rowsOf(byPath.file.fileId));

    // a second open of the same upload: it was taken by the first
    const again = await openUpload(sent.body.uploadId as string);
    expect(again).toMatchObject({ ok: false, error: { code: 'open/unknown-upload' } });
    // reopening keeps the bytes the open took (no upload again, no base64)
    const reopened = (await call('reopen', [uploaded.file.fileId, { joinByBootstrapRoom: false }]))
      .body.result as OpenResult;
    expect(reopened).toMatchObject({ ok: true, file: { name: 'rollout_small.pt', rows: 16 } });
    // the upload is held once: its worker gets shared memory (a plain buffer is copied into a
    // worker thread, then two copies lived as long as the file), and the reopen the same bytes
    const [first, , third] = requests.map((r) => r.sources[0]);
    if (first.kind !== 'bytes' || third.kind !== 'bytes') throw new Error('uploads are bytes');
    expect(first.bytes.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(third.bytes.buffer).toBe(first.bytes.buffer);
    expect(Buffer.from(first.bytes).equals(bytes)).toBe(true);
  });

  it('without the token or with a wrong one: 403 and nothing held', async () => {
    const store = new UploadStore(4 * MiB);
    const { base, upload } = await serveWith(store);
    const noToken = await fetch(`${base}/api/upload`, {
      method: 'POST',
      headers: { 'x-trace-file-name': 'a.pt' },
      body: Buffer.alloc(10),
    });
    expect(noToken.status).toBe(403);
    expect(((await noToken.json()) as { code: string }).code).toBe('serve/bad-token');
    expect(await upload(Buffer.alloc(10), { 'x-trace-token': 'nope' })).toMatchObject({
      status: 403,
      body: { code: 'serve/bad-token' },
    });
    const drop = await fetch(`${base}/api/upload/abc`, {
      method: 'DELETE',
      headers: { 'x-trace-token': 'nope' },
    });
    expect(drop.status).toBe(403);
    expect(store.bytesHeld).toBe(0);
  });

  it('a body declared larger than the limit answers 413 serve/too-large before it is read', async () => {
    const store = new UploadStore(1 * MiB);
    const { upload } = await serveWith(store);
    const { status, body } = await upload(Buffer.alloc(MiB + 1));
    expect(status).toBe(413);
    expect(body.code).toBe('serve/too-large');
    expect(body.error).toBe(
      'the upload is larger than 1 MiB (1048576 bytes): open large files by path (serve FILE)',
    );
    expect(store.bytesHeld).toBe(0);
  });

  it('no room for another while one waits (503 serve/busy); dropping it makes room', async () => {
    const store = new UploadStore(4 * MiB);
    const { base, upload } = await serveWith(store);
    const first = await upload(Buffer.alloc(3 * MiB));
    expect(first.status).toBe(200);
    const refused = await upload(Buffer.alloc(2 * MiB));
    expect(refused).toMatchObject({ status: 503, body: { code: 'serve/busy' } });
    const drop = (id: string) =>
      fetch(`${base}/api/upload/${id}`, { method: 'DELETE', headers: { 'x-trace-token': 'tok' } });
    expect(await (await drop(first.body.uploadId as string)).json()).toEqual({ dropped: true });
    expect(await (await drop(first.body.uploadId as string)).json()).toEqual({ dropped: false });
    expect(store.bytesHeld).toBe(0);
    expect((await upload(Buffer.alloc(2 * MiB))).status).toBe(200);
  });

  it('one large body at a time (503 serve/busy); one cut off mid-way leaves nothing behind', async () => {
    const store = new UploadStore(4 * MiB);
    const { base, upload } = await serveWith(store);
    const slow = await startedUpload(base, 2 * MiB, 64 * 1024);
    const second = await upload(Buffer.alloc(1.5 * MiB));
    expect(second).toMatchObject({ status: 503, body: { code: 'serve/busy' } });
    // the page's Cancel aborts its request: the server forgets the body and its room
    slow.destroy();
    // the abort reaches the server a moment later; until then it is still busy
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, 20));
      status = (await upload(Buffer.alloc(3.5 * MiB))).status;
    }
    // 3.5 MiB fits only if the cut-off body's 2 MiB of room was given back
    expect(status).toBe(200);
    expect(store.bytesHeld).toBe(3.5 * MiB);
  });

  it('a stalled upload (10 bytes, then nothing) times out and frees its room and slot (issue 49)', async () => {
    const store = new UploadStore(4 * MiB);
    const { base, upload } = await serveWith(store, 300);
    const stalled = await startedUpload(base, 3 * MiB, 10);
    let closed = false;
    stalled.on('close', () => (closed = true));
    stalled.on('error', () => undefined);
    // while it is held: no slot for another large body
    expect(await upload(Buffer.alloc(1.5 * MiB))).toMatchObject({ status: 503 });
    await until(() => closed);
    // the server ended the stalled connection: its 3 MiB of room and the slot are free again
    const after = await upload(Buffer.alloc(3.5 * MiB));
    expect(after.status).toBe(200);
    expect(store.bytesHeld).toBe(3.5 * MiB);
  });

  it('an upload not opened in time is dropped; its id then answers open/unknown-upload', async () => {
    const store = new UploadStore(4 * MiB, 50);
    const { upload, openUpload } = await serveWith(store);
    const sent = await upload(readFileSync(SMALL));
    expect(store.bytesHeld).toBe(171707);
    await until(() => store.bytesHeld === 0);
    const result = await openUpload(sent.body.uploadId as string);
    expect(result).toEqual({
      ok: false,
      error: {
        code: 'open/unknown-upload',
        message:
          'the uploaded file is not here: it was opened already, cancelled, or not opened in time; drop it again',
        fileName: 'uploaded file',
      },
    });
    expect(await openUpload('00000000-0000-0000-0000-000000000000')).toMatchObject({
      ok: false,
      error: { code: 'open/unknown-upload' },
    });
  });

  it('hostile file names, lengths and upload ids answer 4xx with a code, holding nothing', async () => {
    const store = new UploadStore(4 * MiB);
    const { base, upload, call } = await serveWith(store);
    const names = [
      '', // none
      '%E0%A4%A', // a malformed escape
      '%C3%28', // not UTF-8
      '..%2F..%2Fetc%2Fpasswd', // a path, not a name
      'a%5Cb.pt', // a Windows path
      'a%00b.pt', // a NUL
      'a%0D%0Ab.pt', // a line break
      '..',
      'x'.repeat(1025),
    ];
    for (const name of names) {
      const { status, body } = await upload(Buffer.alloc(10), { 'x-trace-file-name': name });
      expect([name, status, body.code]).toEqual([name, 400, 'serve/bad-file-name']);
    }
    // a name with spaces, accents and a percent sign is fine, encoded
    const fine = await upload(Buffer.alloc(10), {
      'x-trace-file-name': encodeURIComponent('roll out é 100%.pt'),
    });
    expect(fine.status).toBe(200);
    const name = await call('open', [
      { openId: 'n', sources: [{ kind: 'upload', uploadId: fine.body.uploadId }] },
    ]);
    expect((name.body.result as { error: { fileName: string } }).error.fileName).toBe(
      'roll out é 100%.pt',
    );

    // no declared length (chunked): 411
    const chunked = await new Promise<{ status: number; code: string }>((done) => {
      const url = new URL(`${base}/api/upload`);
      const req = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: { 'x-trace-token': 'tok', 'x-trace-file-name': 'a.pt' },
        },
        (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () =>
            done({
              status: res.statusCode ?? 0,
              code: (JSON.parse(text) as { code: string }).code,
            }),
          );
        },
      );
      req.write('abc');
      req.end();
    });
    expect(chunked).toEqual({ status: 411, code: 'serve/length-required' });

    // an upload id that is not one of the store's is a bad call, before any work
    for (const source of [
      { kind: 'upload' },
      { kind: 'upload', uploadId: '../../etc/passwd' },
      { kind: 'upload', uploadId: 'x'.repeat(65) },
      { kind: 'upload', uploadId: 7 },
    ]) {
      const { status, body } = await call('open', [{ openId: 'h', sources: [source] }]);
      expect([status, body.code]).toEqual([400, 'serve/bad-call']);
    }
    expect(store.bytesHeld).toBe(0);
  });
});
