import type { OpenSource } from '../../src-main/core/api/trace-api';
import type { TraceHost } from '../host/trace-host';
import { UploadError, type FileUploader } from '../host/upload-file';
import { useFilesStore } from '../state/files-store';
import { rememberPaths } from '../state/recent-paths';
import { openDroppedTogether } from '../run/open-run';

let openCounter = 0;
/** uploads on the wire, by the open they are for: Cancel aborts them at once */
const uploading = new Map<string, AbortController>();

/**
 * Opens files a user picked or dropped: by path where the host knows it, else by bytes (serve
 * mode uploads them first, raw). A tab with progress and Cancel shows at once, while the bytes
 * are still being sent.
 */
export async function openFiles(host: TraceHost, files: File[]): Promise<string[]> {
  // several files with paths (the desktop app) may be one run: main decides by content
  const paths = files.map((file) => host.pathForFile(file));
  if (files.length >= 2 && paths.every((path) => path !== null)) {
    return openDroppedTogether(host, paths as string[]);
  }
  const opened: string[] = [];
  for (const file of files) {
    const path = host.pathForFile(file);
    const openId = newOpenId();
    useFilesStore.getState().startOpening(openId, file.name, file.size);
    let source: OpenSource;
    if (path) source = { kind: 'path', path };
    else if (host.uploader) {
      const uploaded = await upload(host.uploader, file, openId);
      if (!uploaded) continue;
      source = uploaded;
    } else {
      useFilesStore.getState().sendProgress(openId, 'preparing', 0);
      const bytesBase64 = await toBase64(file, (done) =>
        useFilesStore.getState().sendProgress(openId, 'preparing', done),
      );
      if (isCancelled(openId)) {
        useFilesStore.getState().finishOpening(openId);
        continue;
      }
      useFilesStore.getState().sendProgress(openId, 'uploading', 0);
      source = { kind: 'bytes', name: file.name, bytesBase64 };
    }
    const fileId = await openSources(host, [source], file.name, file.size, openId);
    if (fileId) opened.push(fileId);
  }
  return opened;
}

/**
 * Cancel of an open this page shows: an upload still on the wire is aborted at once (main does
 * not know the open yet), and main stops reading one it knows.
 */
export function cancelOpening(host: TraceHost, openId: string): void {
  useFilesStore.getState().cancelLocal(openId);
  uploading.get(openId)?.abort();
  void host.api.cancelOpen(openId);
}

/**
 * The file's raw bytes to serve mode, its progress on the open's tab; the source that names
 * them, or null when the open ended here (cancelled, refused: said beside the files).
 */
async function upload(
  uploader: FileUploader,
  file: File,
  openId: string,
): Promise<OpenSource | null> {
  const files = useFilesStore.getState();
  files.sendProgress(openId, 'uploading', 0);
  const controller = new AbortController();
  uploading.set(openId, controller);
  // the browser's performance panel shows each upload (and the e2e test reads it: nothing
  // the page runs while a file is on the wire may block it)
  const started = performance.now();
  try {
    const uploadId = await uploader.send(file, {
      onSent: (bytes) => useFilesStore.getState().sendProgress(openId, 'uploading', bytes),
      signal: controller.signal,
    });
    // cancelled as the last bytes arrived: they are not opened, and go now
    if (isCancelled(openId)) {
      uploader.drop(uploadId);
      files.finishOpening(openId);
      return null;
    }
    return { kind: 'upload', uploadId };
  } catch (error) {
    if (!isCancelled(openId)) {
      files.addError({
        code: error instanceof UploadError ? error.code : 'open/upload-failed',
        message: error instanceof Error ? error.message : String(error),
        fileName: file.name,
      });
    }
    files.finishOpening(openId);
    return null;
  } finally {
    uploading.delete(openId);
    performance.measure(`upload ${file.name}`, { start: started });
  }
}

function newOpenId(): string {
  return `open-${Date.now()}-${++openCounter}`;
}

function isCancelled(openId: string): boolean {
  return useFilesStore.getState().opening.some((o) => o.openId === openId && o.cancelled);
}

/** One open call with progress and error reporting; resolves to the file id or null. */
export async function openSources(
  host: TraceHost,
  sources: OpenSource[],
  name: string,
  bytesTotal: number,
  /** an open already shown (openFiles shows it before the bytes are ready) */
  shownOpenId?: string,
): Promise<string | null> {
  const openId = shownOpenId ?? newOpenId();
  if (!shownOpenId) useFilesStore.getState().startOpening(openId, name, bytesTotal);
  try {
    const result = await host.api.open({ openId, sources });
    // cancelled while the bytes were on the wire, before main knew of the open
    if (result.ok && isCancelled(openId)) {
      void host.api.close(result.file.fileId);
      return null;
    }
    if (result.ok) {
      // a file shown while it was read (previews) gets its whole summary in place
      const state = useFilesStore.getState();
      if (state.files.some((f) => f.fileId === result.file.fileId)) {
        state.replaceFile(result.file.fileId, result.file);
      } else state.addFile(result.file);
      if (result.file.path !== null) rememberPaths([result.file.path]);
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

/** The file as base64 (Electron's drop from a virtual source, over IPC), in chunks that let the page paint its progress between them. */
async function toBase64(file: File, onProgress: (bytesDone: number) => void): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const parts: string[] = [];
  // a multiple of 3 bytes, so the chunks' base64 joins without padding in between
  const SLICE = 3 * 1024 * 1024;
  const CHUNK = 0x8000 - (0x8000 % 3);
  for (let at = 0; at < bytes.length; at += SLICE) {
    const slice = bytes.subarray(at, Math.min(bytes.length, at + SLICE));
    let binary = '';
    for (let i = 0; i < slice.length; i += CHUNK) {
      binary += String.fromCharCode(...slice.subarray(i, i + CHUNK));
    }
    parts.push(btoa(binary));
    onProgress(Math.min(bytes.length, at + SLICE));
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  return parts.join('');
}
