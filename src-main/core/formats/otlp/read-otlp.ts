import { minOf, maxOf } from '../../model/extent';
import type { ByteSource } from '../../bytes/byte-source';
import { FormatError } from '../../bytes/format-error';
import type { SkippedLines } from '../../api/trace-api';
import type { Attrs, Row } from '../../model/row';
import { readLines } from './read-lines';
import {
  EMPTY_ATTRS,
  field,
  keyValues,
  nanosToSeconds,
  normaliseId,
  spanKind,
  statusOf,
} from './otlp-values';
import { buildOtlpRows } from './build-otlp-rows';

export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: string;
  start: number;
  end: number | null;
  attrs: Attrs;
  events: { name: string; ts: number; attrs: Attrs }[];
  links: { traceId: string; spanId: string; attrs: Attrs }[];
  status: { code: 'UNSET' | 'OK' | 'ERROR'; message: string };
  resource: Attrs;
  scope: string;
}

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
}

const MAX_EXAMPLES = 8;

/** Content-based: a JSON object line that mentions resourceSpans near the start. */
export function sniffOtlp(head: Uint8Array): boolean {
  try {
    const text = new TextDecoder('utf-8', { fatal: false }).decode(head.subarray(0, 64 * 1024));
    const first = text.split('\n').find((line) => line.trim() !== '');
    if (!first || !first.trimStart().startsWith('{')) return false;
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
  const spans: OtlpSpan[] = [];
  const skipped: SkippedLines = { count: 0, examples: [] };
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const shared = new SharedValues();
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
    const onChunk = (read: number) => {
      if (options.shouldCancel?.())
        throw new FormatError('open/cancelled', 'opening was cancelled');
      const now = Date.now();
      if (now - lastProgress > 50) {
        lastProgress = now;
        options.onProgress?.({ bytesRead: bytesBefore + read, samplesRead: spans.length });
      }
    };
    for (const line of readLines(source, onChunk)) {
      let text: string;
      try {
        text = decoder.decode(line.bytes);
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
      const reason = importExport(parsed, spans, shared);
      if (reason) skip(source, line.number, reason);
    }
    bytesBefore += source.size;
  }
  options.onProgress?.({ bytesRead: bytesBefore, samplesRead: spans.length });
  const built = buildOtlpRows(spans, { joinByBootstrapRoom: options.joinByBootstrapRoom ?? false });
  const notices: string[] = [];
  if (skipped.count > 0) {
    const examples = skipped.examples
      .slice(0, 3)
      .map((e) => `line ${e.line} ${e.reason}`)
      .join(', ');
    notices.push(`${skipped.count} lines skipped: ${examples}${skipped.count > 3 ? ', …' : ''}`);
  }
  if (spans.length === 0) notices.push('The file holds no spans.');
  if (built.missingParents > 0)
    notices.push(
      `${built.missingParents} spans name a parent that is not in the file; shown as roots.`,
    );
  return {
    rows: built.rows,
    traces: built.traces,
    spans: spans.length,
    events: spans.reduce((n, s) => n + s.events.length, 0),
    links: spans.reduce((n, s) => n + s.links.length, 0),
    skippedLines: skipped,
    services: [...new Set(spans.map((s) => String(s.resource['service.name'] ?? '')))]
      .filter(Boolean)
      .sort(),
    notices,
    globalStart: built.rows.length ? minOf(built.rows, (r) => r.start) : null,
    globalEnd: built.rows.length ? maxOf(built.rows, (r) => r.end) : null,
    bootstrapRooms: new Set(
      spans
        .map((s) => s.attrs.bootstrap_room)
        .filter((r) => r !== undefined && r !== null)
        .map(String),
    ).size,
  };
}

/** One export line into spans; returns why the line is skipped, or null. */
function importExport(parsed: unknown, spans: OtlpSpan[], shared: SharedValues): string | null {
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    return 'wrong shape (not an object)';
  const o = parsed as Record<string, unknown>;
  const resourceSpans = field(o, 'resourceSpans', 'resource_spans');
  if (resourceSpans === undefined) {
    if ('resourceLogs' in o || 'resource_logs' in o) return 'not a trace export (logs)';
    if ('resourceMetrics' in o || 'resource_metrics' in o) return 'not a trace export (metrics)';
    return 'wrong shape (no resourceSpans)';
  }
  if (!Array.isArray(resourceSpans)) return 'wrong shape (resourceSpans is not a list)';
  for (const rs of resourceSpans) {
    if (!rs || typeof rs !== 'object') continue;
    const rso = rs as Record<string, unknown>;
    const resource = shared.resource(
      (rso.resource as { attributes?: unknown } | undefined)?.attributes,
    );
    const scopeSpans = field(rso, 'scopeSpans', 'scope_spans') ?? rso.instrumentationLibrarySpans;
    if (!Array.isArray(scopeSpans)) continue;
    for (const ss of scopeSpans) {
      if (!ss || typeof ss !== 'object') continue;
      const sso = ss as Record<string, unknown>;
      const scopeName = shared.string(
        String(
          ((sso.scope ?? sso.instrumentationLibrary) as { name?: unknown } | undefined)?.name ?? '',
        ),
      );
      if (!Array.isArray(sso.spans)) continue;
      for (const raw of sso.spans) {
        const span = importSpan(raw, resource, scopeName, shared);
        if (span) spans.push(span);
      }
    }
  }
  return null;
}

function importSpan(
  raw: unknown,
  resource: Attrs,
  scope: string,
  shared: SharedValues,
): OtlpSpan | null {
  if (!raw || typeof raw !== 'object') return null;
  const s = raw as Record<string, unknown>;
  const start = nanosToSeconds(field(s, 'startTimeUnixNano', 'start_time_unix_nano'));
  if (start === null) return null;
  const endRaw = nanosToSeconds(field(s, 'endTimeUnixNano', 'end_time_unix_nano'));
  const events = Array.isArray(s.events) && s.events.length > 0 ? s.events : null;
  const links = Array.isArray(s.links) && s.links.length > 0 ? s.links : null;
  return {
    traceId: shared.string(normaliseId(field(s, 'traceId', 'trace_id')), 1),
    spanId: normaliseId(field(s, 'spanId', 'span_id')),
    parentSpanId: shared.string(normaliseId(field(s, 'parentSpanId', 'parent_span_id')), 2),
    name: shared.string(String(s.name ?? ''), 3),
    kind: spanKind(s.kind),
    start,
    end: endRaw === null || endRaw === 0 ? null : endRaw,
    attrs: keyValues(s.attributes),
    events: events
      ? events.flatMap((e) => {
          const eo = e as Record<string, unknown>;
          const ts = nanosToSeconds(field(eo, 'timeUnixNano', 'time_unix_nano'));
          return ts === null
            ? []
            : [{ name: shared.string(String(eo.name ?? '')), ts, attrs: keyValues(eo.attributes) }];
        })
      : NO_EVENTS,
    links: links
      ? links.map((l) => {
          const lo = l as Record<string, unknown>;
          return {
            traceId: shared.string(normaliseId(field(lo, 'traceId', 'trace_id'))),
            spanId: normaliseId(field(lo, 'spanId', 'span_id')),
            attrs: keyValues(lo.attributes),
          };
        })
      : NO_LINKS,
    status: statusOf(s.status),
    resource,
    scope,
  };
}

/** Identity of a resource's attribute list; cheaper than JSON.stringify for the usual strings. */
function resourceKey(attributes: unknown[]): string {
  let key = '';
  for (const kv of attributes) {
    const { key: name, value } = (kv ?? {}) as { key?: unknown; value?: { stringValue?: unknown } };
    const text =
      value && typeof value.stringValue === 'string' && Object.keys(value).length === 1
        ? `s${value.stringValue}`
        : `j${JSON.stringify(value)}`;
    key += `${String(name)}\u0000${text}\u0001`;
  }
  return key;
}

const NO_EVENTS: OtlpSpan['events'] = Object.freeze([]) as unknown as OtlpSpan['events'];
const NO_LINKS: OtlpSpan['links'] = Object.freeze([]) as unknown as OtlpSpan['links'];

/**
 * One copy of each value that repeats across spans: JSON.parse makes a fresh string for every
 * trace id, parent id and name, and a fresh resource per line. A million spans share a few
 * thousand of each, which is most of the difference between 3x and 1x the file in memory.
 */
class SharedValues {
  private readonly strings = new Map<string, string>();
  private readonly resources = new Map<string, Attrs>();
  /** the last value per call site: spans of one line mostly repeat their neighbour's */
  private readonly last: string[] = ['', '', '', ''];

  string(value: string, site: 0 | 1 | 2 | 3 = 0): string {
    if (value === '') return '';
    if (value === this.last[site]) return this.last[site];
    let known = this.strings.get(value);
    if (known === undefined) {
      known = value;
      this.strings.set(value, value);
    }
    this.last[site] = known;
    return known;
  }

  resource(attributes: unknown): Attrs {
    if (!Array.isArray(attributes) || attributes.length === 0) return EMPTY_ATTRS;
    const key = resourceKey(attributes);
    let known = this.resources.get(key);
    if (!known) {
      known = keyValues(attributes);
      this.resources.set(key, known);
    }
    return known;
  }
}
