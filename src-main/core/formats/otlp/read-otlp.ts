import { minOf, maxOf } from '../../model/extent';
import type { ByteSource } from '../../bytes/byte-source';
import { FormatError } from '../../bytes/format-error';
import type { SkippedLines } from '../../api/trace-api';
import type { Row } from '../../model/row';
import { readLines } from './read-lines';
import { SpanCollector } from './import-spans';
import { ExportLineScanner } from './scan-export-line';
import { buildOtlpRows } from './build-otlp-rows';

export interface OtlpDocument {
  rows: Row[];
  traces: number;
  spans: number;
  events: number;
  links: number;
  skippedLines: SkippedLines;
  services: string[];
  notices: string[];
  globalStart: number | null;
  globalEnd: number | null;
  /** distinct bootstrap_room values: PD halves that can be joined into one row */
  bootstrapRooms: number;
}

export interface ReadOtlpOptions {
  onProgress?: (p: { bytesRead: number; samplesRead: number }) => void;
  shouldCancel?: () => boolean;
  joinByBootstrapRoom?: boolean;
  /** read every line with JSON.parse (the reference the byte scanner is tested against) */
  jsonParseOnly?: boolean;
}

const MAX_EXAMPLES = 8;

/** Content-based: a JSON object line that mentions resourceSpans near the start. */
export function sniffOtlp(head: Uint8Array): boolean {
  try {
    const text = new TextDecoder('utf-8', { fatal: false }).decode(head.subarray(0, 64 * 1024));
    const first = text.split('\n').find((line) => line.trim() !== '');
    // a JSON-lines export, or one pretty-printed export (or list of them)
    if (!first || !/^\s*[[{]/.test(first)) return false;
    return /"(resourceSpans|resource_spans)"/.test(text);
  } catch {
    return false;
  }
}

/**
 * OTLP/JSON lines (SGLang's collector file, ROLL's receiver, any exporter): each line one
 * ExportTraceServiceRequest; bad lines are skipped and counted with their number and reason.
 */
export function readOtlp(sources: ByteSource[], options: ReadOtlpOptions = {}): OtlpDocument {
  const read = new SpanCollector();
  const skipped: SkippedLines = { count: 0, examples: [] };
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const scanner = options.jsonParseOnly ? null : new ExportLineScanner();
  let bytesBefore = 0;
  let lastProgress = 0;
  const skip = (source: ByteSource, line: number, reason: string) => {
    skipped.count++;
    if (skipped.examples.length < MAX_EXAMPLES) {
      skipped.examples.push({
        line,
        reason: sources.length > 1 ? `${reason} (${source.name})` : reason,
      });
    }
  };
  for (const source of sources) {
    const before = { count: skipped.count, examples: skipped.examples.length };
    let imported = 0;
    const onChunk = (bytesRead: number) => {
      if (options.shouldCancel?.())
        throw new FormatError('open/cancelled', 'opening was cancelled');
      const now = Date.now();
      if (now - lastProgress > 50) {
        lastProgress = now;
        options.onProgress?.({ bytesRead: bytesBefore + bytesRead, samplesRead: read.spans });
      }
    };
    for (const line of readLines(source, onChunk)) {
      const scanned = scanner?.scan(line.bytes);
      if (scanned) {
        for (const span of scanned) read.add(span);
        imported++;
        continue;
      }
      let text: string;
      try {
        text = decoder.decode(line.bytes);
        // a byte-order mark (an editor's save) is not part of the JSON
        if (line.number === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      } catch {
        skip(source, line.number, 'not UTF-8 text');
        continue;
      }
      if (text.trim() === '') {
        skip(source, line.number, 'blank');
        continue;
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        skip(source, line.number, line.terminated ? 'not JSON' : 'cut off');
        continue;
      }
      const reason = read.importExport(parsed);
      if (reason) skip(source, line.number, reason);
      else imported++;
    }
    // Not JSON lines but one pretty-printed export (or a list of them), as some exporters and
    // hand-saved files hold it: read as one document instead of skipping every line.
    if (imported === 0 && skipped.count > before.count && readWholeDocument(source, read)) {
      skipped.count = before.count;
      skipped.examples.length = before.examples;
    }
    bytesBefore += source.size;
  }
  options.onProgress?.({ bytesRead: bytesBefore, samplesRead: read.spans });
  const built = buildOtlpRows(read, { joinByBootstrapRoom: options.joinByBootstrapRoom ?? false });
  const notices: string[] = [];
  if (skipped.count > 0) {
    const examples = skipped.examples
      .slice(0, 3)
      .map((e) => `line ${e.line} ${e.reason}`)
      .join(', ');
    notices.push(`${skipped.count} lines skipped: ${examples}${skipped.count > 3 ? ', …' : ''}`);
  }
  if (read.spans === 0) notices.push('The file holds no spans.');
  if (built.missingParents > 0)
    notices.push(
      `${built.missingParents} spans name a parent that is not in the file; shown as roots.`,
    );
  return {
    rows: built.rows,
    traces: built.traces,
    spans: read.spans,
    events: read.eventCount,
    links: read.linkCount,
    skippedLines: skipped,
    services: [...read.services].sort(),
    notices,
    globalStart: built.rows.length ? minOf(built.rows, (r) => r.start) : null,
    globalEnd: built.rows.length ? maxOf(built.rows, (r) => r.end) : null,
    bootstrapRooms: read.bootstrapRooms.size,
  };
}

/** Largest file read as one JSON document: JSON text of it must fit in one V8 string. */
const MAX_WHOLE_DOCUMENT = 256 * 1024 * 1024;

function readWholeDocument(source: ByteSource, read: SpanCollector): boolean {
  if (source.size > MAX_WHOLE_DOCUMENT) return false;
  let parsed: unknown;
  try {
    const text = new TextDecoder('utf-8', { fatal: true })
      .decode(readAll(source))
      .replace(/^\uFEFF/, '');
    if (!/^\s*[[{]/.test(text)) return false;
    parsed = JSON.parse(text);
  } catch {
    return false;
  }
  const exports = Array.isArray(parsed) ? parsed : [parsed];
  const spansBefore = read.spans;
  for (const one of exports) read.importExport(one);
  return read.spans > spansBefore;
}

/** A source may return fewer bytes than asked for: read until its end. */
function readAll(source: ByteSource): Uint8Array {
  const out = new Uint8Array(source.size);
  let offset = 0;
  while (offset < source.size) {
    const chunk = source.read(offset, source.size - offset);
    if (chunk.length === 0) break;
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out.subarray(0, offset);
}
