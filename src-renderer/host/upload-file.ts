/** Sends picked files' raw bytes to serve mode ahead of the `open` call that names them. */
export interface FileUploader {
  /**
   * The file as the request body (the browser streams it from disk: the page never holds or
   * encodes its bytes); resolves to the upload's id. `onSent` reports the bytes sent so far;
   * aborting `signal` aborts the request at once (rejects with an `AbortError`).
   */
  send(file: File, options: { onSent(bytes: number): void; signal: AbortSignal }): Promise<string>;
  /** Forgets an upload that will not be opened (Cancel after its bytes arrived). */
  drop(uploadId: string): void;
}

/** An upload serve mode refused or that broke: its code says why (`serve/too-large`, ...). */
export class UploadError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export function createUploader(token: string): FileUploader {
  return {
    send: (file, { onSent, signal }) =>
      new Promise((resolve, reject) => {
        // XMLHttpRequest, not fetch: fetch reports no upload progress
        const xhr = new XMLHttpRequest();
        xhr.open('POST', '/api/upload');
        xhr.setRequestHeader('x-trace-token', token);
        xhr.setRequestHeader('x-trace-file-name', encodeURIComponent(file.name));
        xhr.upload.onprogress = (event) => onSent(event.loaded);
        xhr.onload = () => {
          const answer = readAnswer(xhr.responseText);
          if (xhr.status === 200 && typeof answer.uploadId === 'string') resolve(answer.uploadId);
          else
            reject(
              new UploadError(
                typeof answer.code === 'string' ? answer.code : 'open/upload-failed',
                typeof answer.error === 'string' ? answer.error : `HTTP ${xhr.status}`,
              ),
            );
        };
        xhr.onerror = () =>
          reject(new UploadError('open/upload-failed', 'the upload to serve mode failed'));
        xhr.onabort = () => reject(new DOMException('the upload was cancelled', 'AbortError'));
        if (signal.aborted) return reject(new DOMException('cancelled', 'AbortError'));
        signal.addEventListener('abort', () => xhr.abort(), { once: true });
        xhr.send(file);
      }),
    drop: (uploadId) =>
      void fetch(`/api/upload/${encodeURIComponent(uploadId)}`, {
        method: 'DELETE',
        headers: { 'x-trace-token': token },
      }).catch(() => {}),
  };
}

function readAnswer(text: string): Record<string, unknown> {
  try {
    const answer: unknown = JSON.parse(text);
    return typeof answer === 'object' && answer !== null ? (answer as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
