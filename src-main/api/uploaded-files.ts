import type { FileError } from '../core/api/trace-api';

/** A file's bytes received before its open (serve mode's upload), with the name it came with. */
export interface UploadedFile {
  name: string;
  /** in shared memory: the file's worker reads these bytes, not a copy (IngestSource) */
  bytes: Uint8Array<SharedArrayBuffer>;
}

/**
 * Where the service finds an `{kind: 'upload'}` source's bytes. The transport that received them
 * keeps them (serve mode's upload store); the service takes each once, so an upload's memory
 * goes with the open that names it.
 */
export interface UploadedFiles {
  /** the upload's bytes, no longer held by the store; null when unknown, taken, dropped or expired */
  take(uploadId: string): UploadedFile | null;
}

/** What an open naming an upload that is not (or no longer) there answers. */
export function unknownUploadError(): FileError {
  return {
    code: 'open/unknown-upload',
    message:
      'the uploaded file is not here: it was opened already, cancelled, or not opened in time; drop it again',
    fileName: 'uploaded file',
  };
}
