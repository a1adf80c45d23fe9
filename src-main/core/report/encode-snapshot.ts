/**
 * A snapshot as the bytes a report carries: a typed frame (core/api/typed-json.ts: typed arrays
 * as their bytes, not JSON numbers) deflated with fflate. The page inflates and decodes it with
 * the same codec (src-renderer/report/read-snapshot.ts).
 */
import { deflateSync } from 'fflate';
import { encodeAnswer } from '../api/typed-json';
import type { ReportSnapshot } from '../api/report-snapshot';

export function encodeSnapshot(snapshot: ReportSnapshot): Uint8Array {
  const { parts, byteLength } = encodeAnswer(snapshot);
  const frame = new Uint8Array(byteLength);
  let at = 0;
  for (const part of parts) {
    frame.set(part, at);
    at += part.byteLength;
  }
  return deflateSync(frame, { level: 6 });
}
