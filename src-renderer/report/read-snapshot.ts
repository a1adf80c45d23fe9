import { inflateSync } from 'fflate';
import { TYPED_FRAME_TYPE, decodeAnswer } from '../../src-main/core/api/typed-json';
import {
  REPORT_SNAPSHOT_VERSION,
  type ReportSnapshot,
} from '../../src-main/core/api/report-snapshot';

/** The id of the data block the report's HTML carries (src-main/report/report-html.ts). */
const DATA_ID = 'report-data';

/**
 * The snapshot the report's HTML carries: base64 of a deflated typed frame, inflated and
 * decoded with the codec the HTTP host uses (typed arrays come back as views, not copies).
 */
export function readSnapshot(doc: Document): ReportSnapshot {
  const block = doc.getElementById(DATA_ID);
  if (!block?.textContent) throw new Error('report/no-data: this page carries no report data');
  const frame = inflateSync(base64Bytes(block.textContent.trim()));
  const snapshot = decodeAnswer(TYPED_FRAME_TYPE, frame.buffer as ArrayBuffer) as ReportSnapshot;
  if (snapshot.version !== REPORT_SNAPSHOT_VERSION) {
    throw new Error(
      `report/version: made by another version (${String(snapshot.version)}, this page reads ${REPORT_SNAPSHOT_VERSION})`,
    );
  }
  return snapshot;
}

function base64Bytes(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
