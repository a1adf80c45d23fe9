/**
 * The SGLang PD fixture as it reads without the router: the collector file with the router's
 * (`service.name` smg) spans left out and each request's decode half in a trace of its own, so
 * that a request's prefill and decode halves are two traces sharing only `bootstrap_room`
 * (TRACE_MODEL: "without the router they are separate traces"). Every other byte of a span is
 * the fixture's; links follow their target into its new trace.
 */
interface Span {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  links?: { traceId: string; spanId: string }[];
}
interface Export {
  resourceSpans: {
    resource: { attributes?: { key: string; value: { stringValue?: string } }[] };
    scopeSpans: { spans: Span[] }[];
  }[];
}

const ROUTER = 'smg';

const serviceOf = (rs: Export['resourceSpans'][number]): string | undefined =>
  rs.resource.attributes?.find((a) => a.key === 'service.name')?.value.stringValue;

/** a decode half's own trace id: the fixture's, reversed (still 32 hex digits, none shared) */
const decodeTraceId = (traceId: string): string => [...traceId].reverse().join('');

export function otlpWithoutRouter(collectorText: string): string {
  const exports = collectorText
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Export);
  const byId = new Map<string, { span: Span; router: boolean }>();
  for (const e of exports) {
    for (const rs of e.resourceSpans) {
      const router = serviceOf(rs) === ROUTER;
      for (const ss of rs.scopeSpans)
        for (const span of ss.spans) byId.set(span.spanId, { span, router });
    }
  }
  // the request root of a server span: its topmost ancestor below the router
  const rootOf = (span: Span): Span => {
    let at = span;
    for (;;) {
      const parent = at.parentSpanId ? byId.get(at.parentSpanId) : undefined;
      if (!parent || parent.router) return at;
      at = parent.span;
    }
  };
  const decodeHalf = new Set<string>();
  for (const { span, router } of byId.values()) {
    if (!router && rootOf(span).name.startsWith('decode')) decodeHalf.add(span.spanId);
  }
  const lines: string[] = [];
  for (const e of exports) {
    const resourceSpans = e.resourceSpans.filter((rs) => serviceOf(rs) !== ROUTER);
    if (resourceSpans.length === 0) continue;
    for (const rs of resourceSpans) {
      for (const ss of rs.scopeSpans) {
        for (const span of ss.spans) {
          const parent = span.parentSpanId ? byId.get(span.parentSpanId) : undefined;
          if (parent?.router) span.parentSpanId = '';
          if (decodeHalf.has(span.spanId)) span.traceId = decodeTraceId(span.traceId);
          for (const link of span.links ?? []) {
            if (decodeHalf.has(link.spanId)) link.traceId = decodeTraceId(link.traceId);
          }
        }
      }
    }
    lines.push(JSON.stringify({ ...e, resourceSpans }));
  }
  return lines.join('\n') + '\n';
}
