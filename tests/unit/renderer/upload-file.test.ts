import { afterEach, describe, expect, it, vi } from 'vitest';
import { UploadError, createUploader } from '../../../src-renderer/host/upload-file';

// The page's uploader with XMLHttpRequest and fetch replaced by recorders: what it sends (the
// File itself, never a string), how it reports progress, aborts and reads refusals.
class FakeXhr {
  static made: FakeXhr[] = [];
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: unknown = undefined;
  aborted = false;
  status = 0;
  responseText = '';
  upload: { onprogress: ((event: { loaded: number }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  constructor() {
    FakeXhr.made.push(this);
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: unknown) {
    this.body = body;
  }
  abort() {
    this.aborted = true;
    this.onabort?.();
  }
  answer(status: number, text: string) {
    this.status = status;
    this.responseText = text;
    this.onload?.();
  }
}

afterEach(() => {
  vi.unstubAllGlobals();
  FakeXhr.made = [];
});

const file = new File([new Uint8Array([1, 2, 3, 4])], 'roll out/é.pt');

describe('the serve-mode uploader', () => {
  it('sends the File itself with the token and its encoded name; answers the upload id', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const sent: number[] = [];
    const uploading = createUploader('tok&1').send(file, {
      onSent: (bytes) => sent.push(bytes),
      signal: new AbortController().signal,
    });
    const xhr = FakeXhr.made[0];
    expect([xhr.method, xhr.url]).toEqual(['POST', '/api/upload']);
    expect(xhr.headers).toEqual({
      'x-trace-token': 'tok&1',
      'x-trace-file-name': 'roll%20out%2F%C3%A9.pt',
    });
    expect(xhr.body).toBe(file);
    xhr.upload.onprogress!({ loaded: 2 });
    xhr.upload.onprogress!({ loaded: 4 });
    xhr.answer(200, JSON.stringify({ uploadId: 'u-1', bytes: 4 }));
    await expect(uploading).resolves.toBe('u-1');
    expect(sent).toEqual([2, 4]);
  });

  it('a refusal rejects with its code and words; an unreadable one with the status', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const uploader = createUploader('t');
    const signal = new AbortController().signal;
    const refused = uploader.send(file, { onSent: () => {}, signal });
    FakeXhr.made[0].answer(
      413,
      JSON.stringify({ code: 'serve/too-large', error: 'the upload is larger than 9 bytes' }),
    );
    const error = await refused.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UploadError);
    expect(error).toMatchObject({
      code: 'serve/too-large',
      message: 'the upload is larger than 9 bytes',
    });
    const broken = uploader.send(file, { onSent: () => {}, signal });
    FakeXhr.made[1].answer(502, '<html>bad gateway</html>');
    await expect(broken).rejects.toMatchObject({ code: 'open/upload-failed', message: 'HTTP 502' });
  });

  it('aborting the signal aborts the request at once', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const controller = new AbortController();
    const uploading = createUploader('t').send(file, {
      onSent: () => {},
      signal: controller.signal,
    });
    controller.abort();
    expect(FakeXhr.made[0].aborted).toBe(true);
    await expect(uploading).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('drop asks serve mode to forget the upload', () => {
    const fetch = vi.fn(() => Promise.resolve({ ok: true }));
    vi.stubGlobal('fetch', fetch);
    createUploader('t').drop('u-1');
    expect(fetch).toHaveBeenCalledWith('/api/upload/u-1', {
      method: 'DELETE',
      headers: { 'x-trace-token': 't' },
    });
  });
});
