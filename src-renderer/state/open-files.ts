import type { OpenSource } from '../../src-main/core/api/trace-api';
import type { TraceHost } from '../host/trace-host';
import { useFilesStore } from './files-store';
import { openDroppedTogether } from '../run/open-run';

let openCounter = 0;

/** Opens files a user picked or dropped: by path where the host knows it, else by bytes. */
export async function openFiles(host: TraceHost, files: File[]): Promise<string[]> {
  // several files with paths (the desktop app) may be one run: main decides by content
  const paths = files.map((file) => host.pathForFile(file));
  if (files.length >= 2 && paths.every((path) => path !== null)) {
    return openDroppedTogether(host, paths as string[]);
  }
  const opened: string[] = [];
  for (const file of files) {
    const path = host.pathForFile(file);
    const source: OpenSource = path
      ? { kind: 'path', path }
      : { kind: 'bytes', name: file.name, bytesBase64: await toBase64(file) };
    const fileId = await openSources(host, [source], file.name, file.size);
    if (fileId) opened.push(fileId);
  }
  return opened;
}

/** One open call with progress and error reporting; resolves to the file id or null. */
export async function openSources(
  host: TraceHost,
  sources: OpenSource[],
  name: string,
  bytesTotal: number,
): Promise<string | null> {
  const store = useFilesStore.getState();
  const openId = `open-${Date.now()}-${++openCounter}`;
  store.startOpening(openId, name, bytesTotal);
  try {
    const result = await host.api.open({ openId, sources });
    if (result.ok) {
      // a file shown while it was read (previews) gets its whole summary in place
      const state = useFilesStore.getState();
      if (state.files.some((f) => f.fileId === result.file.fileId)) {
        state.replaceFile(result.file.fileId, result.file);
      } else state.addFile(result.file);
      return result.file.fileId;
    }
    // a folder of rollout dumps opens as trends (a host event says so): nothing to report
    const quiet = ['open/cancelled', 'open/as-trends', 'open/as-run'].includes(result.error.code);
    if (!quiet) useFilesStore.getState().addError(result.error);
    return null;
  } catch (error) {
    useFilesStore.getState().addError({
      code: 'open/failed',
      message: error instanceof Error ? error.message : String(error),
      fileName: name,
    });
    return null;
  } finally {
    useFilesStore.getState().finishOpening(openId);
  }
}

async function toBase64(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  const CHUNK = 0x8000;
  for (let i = 0; i < bytes.length; i += CHUNK) {
    binary += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  }
  return btoa(binary);
}
