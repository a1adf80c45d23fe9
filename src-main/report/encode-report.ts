/**
 * A report's data as the blocks its HTML carries: the snapshot, and each file's details apart
 * (the page decodes those on the first click). Each is a typed frame (core/api/typed-json.ts:
 * typed arrays as their bytes) deflated raw with Node's zlib (native: several times fflate's
 * speed here); the page inflates with fflate and decodes with the same codec.
 */
import { deflateRawSync } from 'node:zlib';
import { encodeAnswer } from '../core/api/typed-json';
import type { ReportParts } from '../core/api/report-snapshot';

/** A block: deflated bytes and what they inflate to (a typed frame, or plain JSON). */
export interface EncodedBlock {
  bytes: Buffer;
  contentType: string;
}

export interface EncodedReport {
  snapshot: EncodedBlock;
  details: EncodedBlock[];
}

export function encodeReport(parts: ReportParts): EncodedReport {
  return { snapshot: deflated(parts.snapshot), details: parts.details.map(deflated) };
}

function deflated(value: unknown): EncodedBlock {
  const { parts, contentType } = encodeAnswer(value);
  return { bytes: deflateRawSync(Buffer.concat(parts), { level: 6 }), contentType };
}
