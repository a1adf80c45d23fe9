import {
  TRACE_API_METHODS,
  type HostEvent,
  type OpenProgress,
  type TraceApi,
} from '../../src-main/core/api/trace-api';
import { parseTypedJson } from '../../src-main/core/api/typed-json';

/** TraceApi over serve mode's HTTP: one POST per call, events as server-sent events. */
export function createHttpApi(token: string): TraceApi {
  const api: Record<string, unknown> = {};
  for (const method of TRACE_API_METHODS) {
    api[method] = async (...args: unknown[]) => {
      const response = await fetch('/api/call', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-trace-token': token },
        body: JSON.stringify({ method, args }),
      });
      const text = await response.text();
      const body = (() => {
        try {
          return parseTypedJson(text);
        } catch {
          return { error: response.statusText };
        }
      })() as {
        result?: unknown;
        error?: string;
      };
      if (!response.ok) throw new Error(body.error ?? `HTTP ${response.status}`);
      return body.result;
    };
  }
  const progressListeners = new Set<(progress: OpenProgress) => void>();
  const hostListeners = new Set<(event: HostEvent) => void>();
  let source: EventSource | null = null;
  const connect = () => {
    if (source) return;
    source = new EventSource(`/api/events?token=${encodeURIComponent(token)}`);
    source.addEventListener('progress', (event: MessageEvent<string>) => {
      const progress = JSON.parse(event.data) as OpenProgress;
      for (const listener of progressListeners) listener(progress);
    });
    source.addEventListener('host', (event: MessageEvent<string>) => {
      const hostEvent = JSON.parse(event.data) as HostEvent;
      for (const listener of hostListeners) listener(hostEvent);
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
