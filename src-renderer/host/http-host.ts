import {
  TRACE_API_METHODS,
  type HostEvent,
  type OpenProgress,
  type TraceApi,
} from '../../src-main/core/api/trace-api';
import { decodeAnswer } from '../../src-main/core/api/typed-json';
import { followEventStream } from './event-stream';

/** What serve mode's client tells beside the calls' answers. */
export interface HttpHostHooks {
  /** the event stream connected (first, and after a break): events sent meanwhile were lost */
  onEventsConnected?(): void;
}

/**
 * TraceApi over serve mode's HTTP: one POST per call, events as server-sent events. A picked
 * file's bytes go before its `open` call, on their own (upload-file.ts).
 */
export function createHttpApi(token: string, hooks: HttpHostHooks = {}): TraceApi {
  const api: Record<string, unknown> = {};
  for (const method of TRACE_API_METHODS) {
    api[method] = async (...args: unknown[]) => {
      const response = await fetch('/api/call', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-trace-token': token },
        body: JSON.stringify({ method, args }),
      });
      const body = await response.arrayBuffer();
      const answer = (() => {
        try {
          return decodeAnswer(response.headers.get('content-type'), body);
        } catch {
          return { error: response.statusText };
        }
      })() as {
        result?: unknown;
        error?: string;
      };
      if (!response.ok) throw new Error(answer.error ?? `HTTP ${response.status}`);
      return answer.result;
    };
  }
  const progressListeners = new Set<(progress: OpenProgress) => void>();
  const hostListeners = new Set<(event: HostEvent) => void>();
  let connected = false;
  const connect = () => {
    if (connected) return;
    connected = true;
    followEventStream(`/api/events?token=${encodeURIComponent(token)}`, ['progress', 'host'], {
      onEvent: (type, data) => {
        if (type === 'progress') {
          const progress = JSON.parse(data) as OpenProgress;
          for (const listener of progressListeners) listener(progress);
        } else {
          const hostEvent = JSON.parse(data) as HostEvent;
          for (const listener of hostListeners) listener(hostEvent);
        }
      },
      onConnected: () => hooks.onEventsConnected?.(),
    });
  };
  api.onProgress = (listener: (progress: OpenProgress) => void) => {
    progressListeners.add(listener);
    connect();
    return () => progressListeners.delete(listener);
  };
  api.onHostEvent = (listener: (event: HostEvent) => void) => {
    hostListeners.add(listener);
    connect();
    return () => hostListeners.delete(listener);
  };
  return api as unknown as TraceApi;
}
