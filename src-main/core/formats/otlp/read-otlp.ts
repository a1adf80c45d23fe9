import { minOf, maxOf } from '../../model/extent';
import type { ByteSource } from '../../bytes/byte-source';
import { FormatError } from '../../bytes/format-error';
import type { PartReader, PendingPart } from '../../bytes/part-reader';
import type { SkippedLines } from '../../model/file-format';
import type { Row } from '../../model/row';
import { LineSkips, readLines } from '../json-lines/read-json-lines';
import { SpanCollector } from './import-spans';
import { ExportLineScanner } from './scan-export-line';
import { countOf } from '../../model/count-of';
import { SpanColumnsWriter, readSpanColumns, type SpanColumns } from './span-columns';
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
  /** bootstrap_room values whose PD halves are separate traces: joinable into one row */
  bootstrapRooms: number;
  /** the share of the files' bytes a helper thread read (RangeReader), when one did */
  helperShare?: number;
}

export interface ReadOtlpOptions {
  onProgress?: (p: { bytesRead: number; samplesRead: number }) => void;
  shouldCancel?: () => boolean;
  joinByBootstrapRoom?: boolean;
  /** read every line with JSON.parse (the reference the byte scanner is tested against) */
  jsonParseOnly?: boolean;
  /** reads the second half of a large file on another thread */
  rangeReader?: RangeReader;
  /** the size from which a file is read in two parts (SPLIT_MIN_BYTES) */
  splitMinBytes?: number;
  /** called when every span is read, before rows are built */
  onRead?: () => void;
}

const MAX_EXAMPLES = 8;

/**
 * Content-based: JSON whose head holds a `resourceSpans` list (a key of that name holding a
 * number, as in a file of counts, is not a trace).
 */
export function sniffOtlp(head: Uint8Array): boolean {
  try {
    const text = new TextDecoder('utf-8', { fatal: false }).decode(head.subarray(0, 64 * 1024));
    const first = text.split('\n').find((line) => line.trim() !== '');
    // a JSON-lines export, or one pretty-printed export (or list of them)
    if (!first || !/^\s*[[{]/.test(first)) return false;
    return /"(resourceSpans|resource_spans)"\s*:\s*\[/.test(text);
  } catch {
    return false;
  }
}

/** A part of a file read on another thread (see RangeReader). */
export interface RangeRead {
  range: RangeResult;
  columns: SpanColumns;
}

/** Reads the end of a large file on another thread (given by the ingest layer). */
export type RangeReader = PartReader<RangeRead>;
export type PendingRange = PendingPart<RangeRead>;

/** Files from this size are read by two threads when a RangeReader is given. */
export const SPLIT_MIN_BYTES = 32 * 1024 * 1024;

/**
 * OTLP/JSON lines (SGLang's collector file, ROLL's receiver, any exporter): each line one
 * ExportTraceServiceRequest; bad lines are skipped and counted with their number and reason.
 */
export function readOtlp(sources: ByteSource[], options: ReadOtlpOptions = {}): OtlpDocument {
  const read = new SpanCollector();
  const skipped: SkippedLines = { count: 0, examples: [] };
  const scanner = options.jsonParseOnly ? null : new ExportLineScanner();
  let bytesBefore = 0;
  let helperBytes = 0;
  let lastProgress = 0;
  const progress = (bytesRead: number) => {
    if (options.shouldCancel?.()) throw new FormatError('open/cancelled', 'opening was cancelled');
    const now = Date.now();
    if (now - lastProgress > 50) {
      lastProgress = now;
      options.onProgress?.({ bytesRead: bytesBefore + bytesRead, samplesRead: read.spans });
    }
  };
  for (const source of sources) {
    const before = { count: skipped.count, examples: skipped.examples.length };
    const merge = (part: RangeResult, lineOffset: number) => {
      skipped.count += part.skipped.count;
      for (const e of part.skipped.examples) {
        if (skipped.examples.length >= MAX_EXAMPLES) break;
        const line = e.line + lineOffset;
        skipped.examples.push({
          line,
          reason: sources.length > 1 ? `${e.reason} (${source.name})` : e.reason,
        });
      }
    };
    const split = options.rangeReader
      ? splitPoint(source, options.splitMinBytes ?? SPLIT_MIN_BYTES)
      : null;
    const pending =
      split !== null && options.rangeReader && source.path !== undefined
        ? options.rangeReader.start(source.path, split)
        : null;
    let first: RangeResult;
    try {
      first = readRange(
        source,
        read,
        0,
        pending ? split! : source.size,
        (bytes) => progress(bytes + (pending?.bytesRead() ?? 0)),
        scanner,
      );
    } catch (error) {
      pending?.cancel();
      throw error;
    }
    merge(first, 0);
    let imported = first.imported;
    if (pending) {
      const rest = pending.wait((bytes) => progress(split! + bytes));
      if (rest) {
        helperBytes += source.size - split!;
        readSpanColumns(rest.columns, (raw) => read.add(raw));
        merge(rest.range, first.lines);
        imported += rest.range.imported;
      } else {
        // the helper could not read its part: read it here
        const last = readRange(
          source,
          read,
          split!,
          source.size,
          (bytes) => progress(split! + bytes),
          scanner,
        );
        merge(last, first.lines);
        imported += last.imported;
      }
    }
    // Not JSON lines but one pretty-printed export (or a list of them), as some exporters and
    // hand-saved files hold it: read as one document instead of skipping every line.
    if (imported === 0 && skipped.count > before.count) {
      const whole = readWholeDocument(source, read);
      if (whole === 'read') {
        skipped.count = before.count;
        skipped.examples.length = before.examples;
      } else if (whole === 'cut-off' && sources.length === 1)
        // one pretty-printed export that ends early: say so, not "465 lines not JSON"
        throw new FormatError(
          'otlp/document-cut-off',
          'one JSON export spread over lines that ends before it closes: the file is cut off',
          source.size,
        );
    }
    bytesBefore += source.size;
  }
  options.onProgress?.({ bytesRead: bytesBefore, samplesRead: read.spans });
  options.onRead?.();
  // PD halves are one request: joined unless the caller asks for them apart
  const built = buildOtlpRows(read, { joinByBootstrapRoom: options.joinByBootstrapRoom ?? true });
  const notices: string[] = [];
  if (skipped.count > 0) {
    const examples = skipped.examples
      .slice(0, 3)
      .map((e) => `line ${e.line} ${e.reason}`)
      .join(', ');
    notices.push(
      `${countOf(skipped.count, 'line')} skipped: ${examples}${skipped.count > 3 ? ', …' : ''}`,
    );
  }
  if (read.spans === 0) notices.push('The file holds no spans.');
  if (built.missingParents > 0)
    notices.push(
      `${countOf(built.missingParents, 'span')} ${built.missingParents === 1 ? 'names' : 'name'} a parent that is not in the file; shown as ${built.missingParents === 1 ? 'a root' : 'roots'}.`,
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
    bootstrapRooms: read.splitRooms.size,
    ...(helperBytes > 0 ? { helperShare: helperBytes / (bytesBefore || 1) } : {}),
  };
}

/** What reading part of a file found: its lines, how many were read, which were skipped. */
export interface RangeResult {
  lines: number;
  imported: number;
  /** line numbers counted from the part's first line */
  skipped: SkippedLines;
}

/**
 * Lines of bytes [from, to) into `read`: each scanned from its bytes, or else parsed with
 * JSON.parse (the scanner's reference), or skipped with its reason.
 */
export function readRange(
  source: ByteSource,
  read: SpanCollector,
  from: number,
  to: number,
  onChunk?: (bytesRead: number) => void,
  scanner: ExportLineScanner | null = new ExportLineScanner(),
): RangeResult {
  const result: RangeResult = { lines: 0, imported: 0, skipped: { count: 0, examples: [] } };
  // the shared line reader drops CR and a byte-order mark, and skips (counts) a line over its
  // bound instead of assembling it whole
  const skipped = new LineSkips(MAX_EXAMPLES);
  const skip = (line: number, reason: string) => skipped.skip(line, reason);
  const decoder = new TextDecoder('utf-8', { fatal: true });
  for (const line of readLines(source, skipped, { onProgress: onChunk, from, to })) {
    result.lines = line.number;
    const scanned = scanner?.scan(line.bytes);
    if (scanned) {
      for (const span of scanned) read.accept(span);
      result.imported++;
      continue;
    }
    let text: string;
    try {
      text = decoder.decode(line.bytes);
    } catch {
      skip(line.number, 'not UTF-8 text');
      continue;
    }
    if (text.trim() === '') {
      skip(line.number, 'blank');
      continue;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      skip(line.number, line.terminated ? 'not JSON' : 'cut off');
      continue;
    }
    let reason: string | null | undefined;
    try {
      reason = read.importExport(parsed);
    } catch (error) {
      // one line too deep for the stack: that line is skipped, the file still opens
      if (!(error instanceof RangeError)) throw error;
      reason = 'nested too deeply';
    }
    if (reason) skip(line.number, reason);
    else result.imported++;
  }
  result.skipped = skipped.counted();
  return result;
}

/** Bytes [from, end) of `source` read into columns: what a helper thread does. */
export function readRangeToColumns(
  source: ByteSource,
  from: number,
  onChunk?: (bytesRead: number) => void,
  onRead?: () => void,
): { read: RangeRead; transfer: ArrayBuffer[] } {
  const writer = new SpanColumnsWriter();
  const range = readRange(
    source,
    new SpanCollector((raw) => writer.push(raw)),
    from,
    source.size,
    onChunk,
  );
  onRead?.();
  const { columns, transfer } = writer.finish();
  return { read: { range, columns }, transfer };
}

/** The start of a line near the middle of a large file, or null to read it on one thread. */
function splitPoint(source: ByteSource, minBytes: number): number | null {
  if (source.size < minBytes || source.size < 2) return null;
  const middle = Math.floor(source.size / 2);
  const window = source.read(middle, 4 * 1024 * 1024);
  const newline = window.indexOf(0x0a);
  return newline < 0 || middle + newline + 1 >= source.size ? null : middle + newline + 1;
}

/** Largest file read as one JSON document: JSON text of it must fit in one V8 string. */
const MAX_WHOLE_DOCUMENT = 256 * 1024 * 1024;

function readWholeDocument(
  source: ByteSource,
  read: SpanCollector,
): 'read' | 'cut-off' | 'not-one-document' {
  if (source.size > MAX_WHOLE_DOCUMENT) return 'not-one-document';
  let parsed: unknown;
  let text = '';
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(readAll(source)).replace(/^\uFEFF/, '');
    if (!/^\s*[[{]/.test(text)) return 'not-one-document';
    parsed = JSON.parse(text);
  } catch {
    // an opening brace on a line of its own, and the text never closes: a cut-off document
    return /^\s*[[{]\s*\n/.test(text) && isCutOffJson(text) ? 'cut-off' : 'not-one-document';
  }
  const exports = Array.isArray(parsed) ? parsed : [parsed];
  const spansBefore = read.spans;
  try {
    for (const one of exports) read.importExport(one);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return 'not-one-document';
  }
  return read.spans > spansBefore ? 'read' : 'not-one-document';
}

/** Whether JSON text ends inside an open object or array (brackets counted outside strings). */
function isCutOffJson(text: string): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) depth--;
  }
  return depth > 0;
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
