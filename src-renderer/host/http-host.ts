import {
  TRACE_API_METHODS,
  type OpenProgress,
  type TraceApi,
} from '../../src-main/core/api/trace-api';

/** TraceApi over serve mode's HTTP: one POST per call, progress as server-sent events. */
export function createHttpApi(token: string): TraceApi {
  const api: Record<string, unknown> = {};
  for (const method of TRACE_API_METHODS) {
    api[method] = async (...args: unknown[]) => {
      const response = await fetch('/api/call', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-trace-token': token },
        body: JSON.stringify({ method, args }),
      });
      const body = (await response.json().catch(() => ({ error: response.statusText }))) as {
        result?: unknown;
        error?: string;
      };
      if (!response.ok) throw new Error(body.error ?? `HTTP ${response.status}`);
      return body.result;
    };
  }
  const listeners = new Set<(progress: OpenProgress) => void>();
  let source: EventSource | null = null;
  api.onProgress = (listener: (progress: OpenProgress) => void) => {
    listeners.add(listener);
    if (!source) {
      source = new EventSource(`/api/events?token=${encodeURIComponent(token)}`);
      source.onmessage = (event: MessageEvent<string>) => {
        const progress = JSON.parse(event.data) as OpenProgress;
        for (const l of listeners) l(progress);
      };
    }
    return () => listeners.delete(listener);
  };
  return api as unknown as TraceApi;
}
