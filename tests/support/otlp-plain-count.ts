import { readFileSync } from 'node:fs';

/**
 * A second path to an OTLP file's figures for tests: JSON.parse on each line, no code of ours.
 * Lines that are not a `resourceSpans` export are skipped, as the README says they must be.
 */
export interface PlainOtlpCounts {
  spans: number;
  traces: number;
  events: number;
  links: number;
  /** traces with at least one span whose status is an error (code 2 / STATUS_CODE_ERROR) */
  errorTraces: number;
  /** every span event's attributes by event name, in file order */
  eventAttrs: Map<string, Record<string, unknown>[]>;
}

interface PlainSpan {
  traceId: string;
  events?: { name: string; attributes?: { key: string; value: Record<string, unknown> }[] }[];
  links?: unknown[];
  status?: { code?: number | string };
}

export function plainOtlpCounts(path: string): PlainOtlpCounts {
  const counts: PlainOtlpCounts = {
    spans: 0,
    traces: 0,
    events: 0,
    links: 0,
    errorTraces: 0,
    eventAttrs: new Map(),
  };
  const traces = new Set<string>();
  const errorTraces = new Set<string>();
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    let doc: unknown;
    try {
      doc = JSON.parse(line);
    } catch {
      continue;
    }
    const resourceSpans = (doc as { resourceSpans?: unknown } | null)?.resourceSpans;
    if (!Array.isArray(resourceSpans)) continue;
    for (const rs of resourceSpans as { scopeSpans: { spans: PlainSpan[] }[] }[])
      for (const ss of rs.scopeSpans)
        for (const span of ss.spans) {
          counts.spans += 1;
          traces.add(span.traceId);
          counts.links += span.links?.length ?? 0;
          for (const event of span.events ?? []) {
            counts.events += 1;
            const attrs = Object.fromEntries(
              (event.attributes ?? []).map((a) => [a.key, Object.values(a.value)[0]]),
            );
            counts.eventAttrs.set(event.name, [
              ...(counts.eventAttrs.get(event.name) ?? []),
              attrs,
            ]);
          }
          const code = span.status?.code;
          if (code === 2 || code === 'STATUS_CODE_ERROR') errorTraces.add(span.traceId);
        }
  }
  counts.traces = traces.size;
  counts.errorTraces = errorTraces.size;
  return counts;
}
