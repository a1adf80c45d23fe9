import type { TraceApi } from '../../src-main/core/api/trace-api';
import { createHttpApi } from './http-host';

/** What the renderer knows of where it runs: the API, and how to name a dropped file. */
export interface TraceHost {
  kind: 'electron' | 'browser';
  api: TraceApi;
  /** the file's path on disk, when the host can know it (Electron); null in a browser */
  pathForFile(file: File): string | null;
  /**
   * Bytes of an `open` call sent so far (serve mode uploads picked files); Electron opens by
   * path and never calls the listener.
   */
  onUploadProgress(listener: (openId: string, sentBytes: number) => void): () => void;
  /**
   * Each time the host's event stream connects, the first time and after a break (serve mode's
   * server-sent events): events main sent while it was not connected are lost, so the page asks
   * what is going on. Electron's IPC loses none and never calls it.
   */
  onEventsConnected(listener: () => void): () => void;
}

interface ElectronBridge {
  traceApi: TraceApi;
  traceHost: { kind: 'electron'; pathForFile(file: File): string };
}

export function connectHost(): TraceHost {
  const bridge = window as unknown as Partial<ElectronBridge>;
  if (bridge.traceApi && bridge.traceHost) {
    const { traceHost } = bridge;
    return {
      kind: 'electron',
      api: bridge.traceApi,
      pathForFile: (file) => traceHost.pathForFile(file) || null,
      onUploadProgress: () => () => {},
      onEventsConnected: () => () => {},
    };
  }
  const token = new URLSearchParams(window.location.search).get('token') ?? '';
  const uploads = new Set<(openId: string, sentBytes: number) => void>();
  const connections = new Set<() => void>();
  const api = createHttpApi(token, {
    onUpload: (openId, sent) => {
      for (const listener of uploads) listener(openId, sent);
    },
    onEventsConnected: () => {
      for (const listener of connections) listener();
    },
  });
  return {
    kind: 'browser',
    api,
    pathForFile: () => null,
    onUploadProgress: (listener) => {
      uploads.add(listener);
      return () => uploads.delete(listener);
    },
    onEventsConnected: (listener) => {
      connections.add(listener);
      return () => connections.delete(listener);
    },
  };
}
