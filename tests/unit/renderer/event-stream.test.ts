import { describe, expect, it } from 'vitest';
import {
  followEventStream,
  type EventSourceLike,
  type EventStreamHandlers,
} from '../../../src-renderer/host/event-stream';

// Serve mode's event stream as the renderer follows it, over sources the test drives: each
// connection (the first, and after the browser reconnected) is said, so the page asks what it
// missed; a source the browser gave up on is replaced, waiting longer each time.
const CONNECTING = 0;
const OPEN = 1;
const CLOSED = 2;

class FakeSource implements EventSourceLike {
  readyState = CONNECTING;
  closed = false;
  private readonly listeners = new Map<string, ((event: MessageEvent<string>) => void)[]>();
  constructor(readonly url: string) {}
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  close() {
    this.closed = true;
  }
  fire(type: string, readyState: number, data = '') {
    this.readyState = readyState;
    for (const listener of this.listeners.get(type) ?? []) {
      listener({ data } as MessageEvent<string>);
    }
  }
}

function follow() {
  const sources: FakeSource[] = [];
  const said: string[] = [];
  const retries: { retry: () => void; ms: number }[] = [];
  const handlers: EventStreamHandlers = {
    onEvent: (type, data) => said.push(`${type} ${data}`),
    onConnected: () => said.push('connected'),
  };
  followEventStream(
    '/api/events?token=t',
    ['progress', 'host'],
    handlers,
    (url) => {
      const source = new FakeSource(url);
      sources.push(source);
      return source;
    },
    (retry, ms) => retries.push({ retry, ms }),
  );
  return { sources, said, retries };
}

describe('following the event stream', () => {
  it('says each connection, the browser’s reconnections too, and passes the named events on', () => {
    const { sources, said, retries } = follow();
    expect(sources.map((s) => s.url)).toEqual(['/api/events?token=t']);
    sources[0].fire('open', OPEN);
    sources[0].fire('progress', OPEN, '{"openId":"o"}');
    // a network hiccup: the browser reconnects this source on its own
    sources[0].fire('error', CONNECTING);
    sources[0].fire('open', OPEN);
    sources[0].fire('host', OPEN, '{"type":"command"}');
    expect(said).toEqual([
      'connected',
      'progress {"openId":"o"}',
      'connected',
      'host {"type":"command"}',
    ]);
    expect([sources.length, retries.length, sources[0].closed]).toEqual([1, 0, false]);
  });

  it('replaces a source the browser gave up on, waiting longer each time until one connects', () => {
    const { sources, said, retries } = follow();
    sources[0].fire('error', CLOSED);
    expect(sources[0].closed).toBe(true);
    expect(retries.map((r) => r.ms)).toEqual([1000]);
    expect(sources).toHaveLength(1);
    retries[0].retry();
    sources[1].fire('error', CLOSED);
    retries[1].retry();
    sources[2].fire('error', CLOSED);
    expect(retries.map((r) => r.ms)).toEqual([1000, 2000, 4000]);
    retries[2].retry();
    sources[3].fire('open', OPEN);
    expect(said).toEqual(['connected']);
    // connected again: the next break waits the first delay
    sources[3].fire('error', CLOSED);
    expect(retries.map((r) => r.ms)).toEqual([1000, 2000, 4000, 1000]);
    expect(sources.map((s) => s.url)).toEqual(Array(4).fill('/api/events?token=t'));
  });

  it('waits at most 30 s between tries', () => {
    const { sources, retries } = follow();
    for (let i = 0; i < 8; i++) {
      sources[i].fire('error', CLOSED);
      retries[i].retry();
    }
    expect(retries.map((r) => r.ms)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
  });
});
