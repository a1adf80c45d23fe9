/** The parts of the browser's EventSource the stream uses (a test gives its own). */
export interface EventSourceLike {
  readonly readyState: number;
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void): void;
  close(): void;
}
export type EventSourceMaker = (url: string) => EventSourceLike;

export interface EventStreamHandlers {
  /** one named event's data (`event: progress`, `event: host`) */
  onEvent(type: string, data: string): void;
  /**
   * The stream is connected, the first time and again after any break. Whatever the server
   * sent while it was not (before the first connection too) never comes: ask what is now.
   */
  onConnected(): void;
}

/** EventSource.CLOSED: the browser gave up and will not reconnect on its own. */
const CLOSED = 2;
const FIRST_RETRY_MS = 1000;
const LAST_RETRY_MS = 30_000;

/**
 * Server-sent events that stay connected. The browser reconnects a broken stream on its own
 * but gives up on an answer that is not a stream (a server restarting, a proxy's error page);
 * then a new one is made, waiting longer each time until one connects.
 */
export function followEventStream(
  url: string,
  eventTypes: readonly string[],
  handlers: EventStreamHandlers,
  makeSource: EventSourceMaker = (at) => new EventSource(at),
  schedule: (retry: () => void, ms: number) => void = (retry, ms) => void setTimeout(retry, ms),
): void {
  let retryMs = FIRST_RETRY_MS;
  const connect = () => {
    const source = makeSource(url);
    source.addEventListener('open', () => {
      retryMs = FIRST_RETRY_MS;
      handlers.onConnected();
    });
    for (const type of eventTypes) {
      source.addEventListener(type, (event) => handlers.onEvent(type, event.data));
    }
    source.addEventListener('error', () => {
      if (source.readyState !== CLOSED) return;
      source.close();
      schedule(connect, retryMs);
      retryMs = Math.min(LAST_RETRY_MS, retryMs * 2);
    });
  };
  connect();
}
