import { randomUUID } from 'node:crypto';
import type { UploadedFile, UploadedFiles } from '../api/uploaded-files';

/** How long an upload waits for the open that names it before it is dropped. */
export const UPLOAD_TTL_MS = 30_000;

interface HeldUpload extends UploadedFile {
  timer: ReturnType<typeof setTimeout>;
}

/**
 * Serve mode's uploads between their body and their open: each under a random id, taken once
 * by the open that names it, dropped when cancelled or not opened within `ttlMs`. The bytes held
 * and being received together stay within `maxBytes`, so memory is bounded whatever a client
 * sends or forgets.
 */
export class UploadStore implements UploadedFiles {
  private readonly held = new Map<string, HeldUpload>();
  private heldBytes = 0;
  private receiving = 0;

  constructor(
    readonly maxBytes: number,
    private readonly ttlMs = UPLOAD_TTL_MS,
  ) {}

  /**
   * Room for a body of `bytes` while it is received, or false when the uploads held and on the
   * way leave too little (the caller answers busy). `release` gives the room back.
   */
  reserve(bytes: number): { release(): void } | null {
    if (this.heldBytes + this.receiving + bytes > this.maxBytes) return null;
    this.receiving += bytes;
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.receiving -= bytes;
      },
    };
  }

  /** Keeps a received file until an open takes it or it expires; answers its id. */
  put(name: string, bytes: Uint8Array<SharedArrayBuffer>): string {
    const uploadId = randomUUID();
    const timer = setTimeout(() => this.drop(uploadId), this.ttlMs);
    // a waiting upload never keeps the process alive
    timer.unref();
    this.held.set(uploadId, { name, bytes, timer });
    this.heldBytes += bytes.byteLength;
    return uploadId;
  }

  take(uploadId: string): UploadedFile | null {
    const upload = this.remove(uploadId);
    return upload ? { name: upload.name, bytes: upload.bytes } : null;
  }

  /** Forgets an upload (cancelled, or expired); false when it was not held. */
  drop(uploadId: string): boolean {
    return this.remove(uploadId) !== null;
  }

  /** Bytes of uploads waiting to be opened. */
  get bytesHeld(): number {
    return this.heldBytes;
  }

  private remove(uploadId: string): HeldUpload | null {
    const upload = this.held.get(uploadId);
    if (!upload) return null;
    clearTimeout(upload.timer);
    this.held.delete(uploadId);
    this.heldBytes -= upload.bytes.byteLength;
    return upload;
  }
}
