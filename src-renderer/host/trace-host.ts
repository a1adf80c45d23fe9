import type { TraceApi } from '../../src-main/core/api/trace-api';
import { createHttpApi } from './http-host';

/** What the renderer knows of where it runs: the API, and how to name a dropped file. */
export interface TraceHost {
  kind: 'electron' | 'browser';
  api: TraceApi;
  /** the file's path on disk, when the host can know it (Electron); null in a browser */
  pathForFile(file: File): string | null;
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
    };
  }
  const token = new URLSearchParams(window.location.search).get('token') ?? '';
  return { kind: 'browser', api: createHttpApi(token), pathForFile: () => null };
}
