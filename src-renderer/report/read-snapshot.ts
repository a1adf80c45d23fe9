import { inflateSync } from 'fflate';
import { TYPED_FRAME_TYPE, decodeAnswer } from '../../src-main/core/api/typed-json';
import {
  REPORT_SNAPSHOT_VERSION,
  type FileDetails,
  type ReportSnapshot,
} from '../../src-main/core/api/report-snapshot';

/**
 * The data the report's HTML carries (src-main/report/report-html.ts): blocks of base64 of a
 * deflated typed frame, inflated and decoded with the codec the HTTP host uses (typed arrays
 * come back as views, not copies). The snapshot at once; each file's details (spans, samples:
 * most of the bytes) on first ask, so the timeline shows without waiting for them.
 */
export async function readSnapshot(doc: Document): Promise<{
  snapshot: ReportSnapshot;
  details: (file: number) => Promise<FileDetails>;
}> {
  const snapshot = (await readBlock(doc, 'report-data')) as ReportSnapshot;
  if (snapshot.version !== REPORT_SNAPSHOT_VERSION) {
    throw new Error(
      `report/version: made by another version (${String(snapshot.version)}, this page reads ${REPORT_SNAPSHOT_VERSION})`,
    );
  }
  const read = new Map<number, Promise<FileDetails>>();
  const details = (file: number) => {
    let found = read.get(file);
    if (!found) {
      // its block comes after the page's script (report-html.ts): there once the page is parsed
      found = parsed(doc).then(() =>
        readBlock(doc, `report-details-${file}`),
      ) as Promise<FileDetails>;
      read.set(file, found);
    }
    return found;
  };
  return { snapshot, details };
}

function parsed(doc: Document): Promise<void> {
  if (doc.readyState !== 'loading') return Promise.resolve();
  return new Promise((done) =>
    doc.addEventListener('DOMContentLoaded', () => done(), { once: true }),
  );
}

/**
 * A block's value; its phases timed as `${id}:base64`, `${id}:inflate` and `${id}:decode`
 * (performance measures: `npm run bench report` prints them beside the timeline's first draw).
 */
async function readBlock(doc: Document, id: string): Promise<unknown> {
  const block = doc.getElementById(id);
  if (!block?.textContent) throw new Error(`report/no-data: this page carries no ${id} block`);
  const started = performance.now();
  const deflated = base64Bytes(block.textContent.trim());
  const decoded = performance.now();
  const frame = await inflated(deflated);
  const inflatedAt = performance.now();
  // a typed frame, or plain JSON where the block holds no typed array
  const value = decodeAnswer(block.dataset.type ?? TYPED_FRAME_TYPE, frame);
  performance.measure(`${id}:base64`, { start: started, end: decoded });
  performance.measure(`${id}:inflate`, { start: decoded, end: inflatedAt });
  performance.measure(`${id}:decode`, { start: inflatedAt, end: performance.now() });
  return value;
}

/**
 * Raw deflate undone by the browser's own DecompressionStream where it has 'deflate-raw'
 * (native: a 10,000-sample report's 21 MB snapshot took fflate 1.6 s under load), else fflate.
 */
async function inflated(bytes: Uint8Array): Promise<ArrayBuffer> {
  let stream: ReadableStream<Uint8Array> | null = null;
  try {
    stream = new Blob([bytes as BlobPart])
      .stream()
      .pipeThrough(new DecompressionStream('deflate-raw'));
  } catch {
    // an older browser: no DecompressionStream, or not this format
  }
  if (stream) return new Response(stream).arrayBuffer();
  return ownBuffer(inflateSync(bytes));
}

/** Base64 as bytes: the browser's own decoder where it has one, else atob's string. */
function base64Bytes(text: string): Uint8Array {
  const typed = Uint8Array as { fromBase64?: (text: string) => Uint8Array };
  if (typeof typed.fromBase64 === 'function') return typed.fromBase64(text);
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** The bytes as a buffer of their own: the codec reads the frame from offset 0 of its buffer. */
export function ownBuffer(bytes: Uint8Array): ArrayBuffer {
  const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  return (whole ? bytes : bytes.slice()).buffer as ArrayBuffer;
}
