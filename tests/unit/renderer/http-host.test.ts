import { afterEach, describe, expect, it, vi } from 'vitest';
import { TRACE_API_METHODS } from '../../../src-main/core/api/trace-api';
import { encodeAnswer } from '../../../src-main/core/api/typed-json';
import { bytesOf } from '../../support/serve-call';
import { createHttpApi } from '../../../src-renderer/host/http-host';

// The renderer's TraceApi client for serve mode, with fetch and EventSource replaced by
// recorders: what it sends, how it reads answers and errors, how events reach listeners.
class FakeEventSource {
  static made: FakeEventSource[] = [];
  readonly listeners = new Map<string, (event: { data: string }) => void>();
  constructor(readonly url: string) {
    FakeEventSource.made.push(this);
  }
  addEventListener(type: string, listener: (event: { data: string }) => void) {
    this.listeners.set(type, listener);
  }
}

afterEach(() => {
  vi.unstubAllGlobals();
  FakeEventSource.made = [];
});

/** fetch answering `body`: text (JSON, or not) or an encoded answer, as serve mode sends it */
function stubFetch(status: number, body: string | ReturnType<typeof encodeAnswer>) {
  const { contentType, bytes } =
    typeof body === 'string'
      ? { contentType: 'application/json', bytes: new TextEncoder().encode(body) }
      : { contentType: body.contentType, bytes: bytesOf(body) };
  const fetch = vi.fn(() =>
    Promise.resolve({
      ok: status < 400,
      status,
      statusText: `status ${status}`,
      headers: new Headers({ 'content-type': contentType }),
      arrayBuffer: () => Promise.resolve(bytes.slice().buffer),
    }),
  );
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

describe('the serve-mode TraceApi client', () => {
  it('one POST per call with the token; typed arrays come back as typed arrays', async () => {
    const order = { rowIds: new Int32Array([3, 1, 2]) };
    const fetch = stubFetch(200, encodeAnswer({ result: order }));
    const api = createHttpApi('secret token');
    const answer = await api.queryRows('f1', { search: 'x' } as never);
    expect(fetch).toHaveBeenCalledWith('/api/call', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-trace-token': 'secret token' },
      body: JSON.stringify({ method: 'queryRows', args: ['f1', { search: 'x' }] }),
    });
    expect(answer).toEqual(order);
    expect((answer as typeof order).rowIds).toBeInstanceOf(Int32Array);
    expect(
      Object.keys(api)
        .filter((k) => !k.startsWith('on'))
        .sort(),
    ).toEqual([...TRACE_API_METHODS].sort());
  });

  it('an error answer throws its message; an unreadable one throws the status text', async () => {
    stubFetch(400, JSON.stringify({ error: 'listFiles takes 0 arguments' }));
    await expect(createHttpApi('t').listFiles()).rejects.toThrow('listFiles takes 0 arguments');
    stubFetch(502, '<html>bad gateway</html>');
    await expect(createHttpApi('t').listFiles()).rejects.toThrow('status 502');
  });

  it('says each time the event stream connects, so the page can ask what it missed', () => {
    vi.stubGlobal('EventSource', FakeEventSource);
    let connections = 0;
    const api = createHttpApi('t', { onEventsConnected: () => (connections += 1) });
    api.onProgress(() => {});
    const stream = FakeEventSource.made[0];
    stream.listeners.get('open')!({ data: '' });
    // the browser reconnected after a break
    stream.listeners.get('open')!({ data: '' });
    expect(connections).toBe(2);
  });

  it('progress and host events come from one event stream, opened once with the token', () => {
    vi.stubGlobal('EventSource', FakeEventSource);
    const api = createHttpApi('a&b');
    const progress: unknown[] = [];
    const host: unknown[] = [];
    const offProgress = api.onProgress((p) => progress.push(p));
    api.onHostEvent((e) => host.push(e));
    expect(FakeEventSource.made.map((s) => s.url)).toEqual(['/api/events?token=a%26b']);
    const stream = FakeEventSource.made[0];
    stream.listeners.get('progress')!({ data: JSON.stringify({ openId: 'o', phase: 'reading' }) });
    stream.listeners.get('host')!({ data: JSON.stringify({ type: 'command', command: 'about' }) });
    expect(progress).toEqual([{ openId: 'o', phase: 'reading' }]);
    expect(host).toEqual([{ type: 'command', command: 'about' }]);
    offProgress();
    stream.listeners.get('progress')!({ data: JSON.stringify({ openId: 'o', phase: 'done' }) });
    expect(progress).toHaveLength(1);
  });
});
