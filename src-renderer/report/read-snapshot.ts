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
export function readSnapshot(doc: Document): {
  snapshot: ReportSnapshot;
  details: (file: number) => FileDetails;
} {
  const snapshot = readBlock(doc, 'report-data') as ReportSnapshot;
  if (snapshot.version !== REPORT_SNAPSHOT_VERSION) {
    throw new Error(
      `report/version: made by another version (${String(snapshot.version)}, this page reads ${REPORT_SNAPSHOT_VERSION})`,
    );
  }
  const read = new Map<number, FileDetails>();
  const details = (file: number) => {
    let found = read.get(file);
    if (!found) read.set(file, (found = readBlock(doc, `report-details-${file}`) as FileDetails));
    return found;
  };
  return { snapshot, details };
}

function readBlock(doc: Document, id: string): unknown {
  const block = doc.getElementById(id);
  if (!block?.textContent) throw new Error(`report/no-data: this page carries no ${id} block`);
  // a typed frame, or plain JSON where the block holds no typed array
  return decodeAnswer(
    block.dataset.type ?? TYPED_FRAME_TYPE,
    ownBuffer(inflateSync(base64Bytes(block.textContent.trim()))),
  );
}

function base64Bytes(text: string): Uint8Array {
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
