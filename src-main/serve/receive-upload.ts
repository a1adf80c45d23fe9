import type { IncomingMessage } from 'node:http';
import { HttpRefusal, busy, tooLarge } from './http-refusal';
import type { UploadStore } from './upload-store';
import { BODY_IDLE_MS, watchStall } from './body-stall';

/** The header that names an uploaded file (URI-encoded: a header carries no other text). */
export const FILE_NAME_HEADER = 'x-trace-file-name';
const MAX_NAME_CHARS = 1024;

/**
 * A picked file's raw bytes as one request body (`POST /api/upload`), written into a buffer of
 * its declared length as they arrive, then kept in the store until an open names them. The
 * declared length is checked before a byte is read (too large: 413; no room: 503), and a body
 * cut off (the page's Cancel aborts it) is dropped with its buffer.
 */
export async function receiveUpload(
  req: IncomingMessage,
  store: UploadStore,
  idleMs = BODY_IDLE_MS,
): Promise<{ uploadId: string; bytes: number }> {
  const size = declaredLength(req);
  if (size > store.maxBytes) throw tooLarge(store.maxBytes, 'upload');
  const name = fileName(req.headers[FILE_NAME_HEADER]);
  const room = store.reserve(size);
  if (!room) throw busy();
  try {
    // shared memory, written once: the file's worker then reads these bytes, not a copy
    const bytes = await readBodyInto(req, Buffer.from(new SharedArrayBuffer(size)), idleMs);
    return { uploadId: store.put(name, bytes), bytes: size };
  } finally {
    room.release();
  }
}

/** The body's length from its header: an upload must say it (a browser's always does). */
function declaredLength(req: IncomingMessage): number {
  const header = req.headers['content-length'];
  if (header === undefined)
    throw new HttpRefusal(411, 'serve/length-required', 'an upload must declare its length');
  // Node refuses a malformed or repeated content-length before we see it; digits only here
  if (!/^\d{1,16}$/.test(header))
    throw new HttpRefusal(400, 'serve/bad-length', 'the upload length is not a number');
  return Number(header);
}

/** The file's name as the page gave it: decoded, one plain name, no control characters. */
export function fileName(header: string | string[] | undefined): string {
  const refuse = (why: string) => new HttpRefusal(400, 'serve/bad-file-name', why);
  if (typeof header !== 'string' || header === '') throw refuse('the upload names no file');
  let name: string;
  try {
    name = decodeURIComponent(header);
  } catch {
    throw refuse('the file name is not URI-encoded UTF-8');
  }
  if (name.length > MAX_NAME_CHARS) throw refuse(`the file name is longer than ${MAX_NAME_CHARS}`);
  if (/[\u0000-\u001f\u007f/\\]/.test(name) || name === '.' || name === '..' || name.trim() === '')
    throw refuse('the file name must be one plain name');
  return name;
}

/** The body into `target`; it must fill it exactly (Node's parser never gives more). */
function readBodyInto(
  req: IncomingMessage,
  target: Buffer<SharedArrayBuffer>,
  idleMs: number,
): Promise<Buffer<SharedArrayBuffer>> {
  let stopWatching = () => undefined as void;
  return new Promise<Buffer<SharedArrayBuffer>>((resolve, reject) => {
    let at = 0;
    let ended = false;
    // a body that stops sending is dropped, and its room with it
    const stall = watchStall(req, idleMs, reject);
    stopWatching = stall.stop;
    req.on('data', (chunk: Buffer) => {
      stall.alive();
      if (at + chunk.length > target.length) {
        req.removeAllListeners('data');
        req.pause();
        reject(tooLarge(target.length, 'upload'));
        return;
      }
      chunk.copy(target, at);
      at += chunk.length;
    });
    req.on('end', () => {
      ended = true;
      if (at === target.length) resolve(target);
      else reject(new HttpRefusal(400, 'serve/short-body', 'the upload ended before its length'));
    });
    // the page cancelled, or the connection broke: nothing is kept
    req.on('close', () => {
      if (!ended) reject(new HttpRefusal(400, 'serve/upload-aborted', 'the upload was cut off'));
    });
    req.on('error', reject);
  }).finally(() => stopWatching());
}
