import type { TraceApi } from '../../src-main/core/api/trace-api';
import { createHttpApi } from './http-host';
import { createUploader, type FileUploader } from './upload-file';

/** What the renderer knows of where it runs: the API, and how to name a dropped file. */
export interface TraceHost {
  /** 'report': a shared report's page, answering from its snapshot (src-renderer/report) */
  kind: 'electron' | 'browser' | 'report';
  api: TraceApi;
  /**
   * A shared report made without its content: prompts, responses, labels and tool arguments are
   * left out of what `api` answers, and the page says so instead of offering them
   */
  contentLeftOut?: boolean;
  /** A shared report holding a compare pair (both ways round): only then does it offer Compare */
  holdsCompare?: boolean;
  /** the file's path on disk, when the host can know it (Electron); null in a browser */
  pathForFile(file: File): string | null;
  /**
   * Sends a file without a path ahead of its open (serve mode: its raw bytes); null where such
   * a file travels inside the open call (Electron's drop from a virtual source, base64 over IPC)
   */
  uploader: FileUploader | null;
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
      uploader: null,
      onEventsConnected: () => () => {},
    };
  }
  const token = new URLSearchParams(window.location.search).get('token') ?? '';
  const connections = new Set<() => void>();
  const api = createHttpApi(token, {
    onEventsConnected: () => {
      for (const listener of connections) listener();
    },
  });
  return {
    kind: 'browser',
    api,
    pathForFile: () => null,
    uploader: createUploader(token),
    onEventsConnected: (listener) => {
      connections.add(listener);
      return () => connections.delete(listener);
    },
  };
}
