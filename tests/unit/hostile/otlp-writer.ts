/**
 * OTLP JSON lines for the hostile corpus: one ExportTraceServiceRequest per line, spans given
 * as plain objects (ids as hex, times as nanosecond strings).
 */
export interface OtlpSpan {
  spanId: string;
  parentSpanId?: string;
  name?: string;
  start: string;
  end?: string;
  attributes?: unknown[];
}

export const TRACE_ID = '0123456789abcdef0123456789abcdef';

export function otlpLine(spans: OtlpSpan[], traceId = TRACE_ID): string {
  return JSON.stringify({
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'hostile' } }] },
        scopeSpans: [
          {
            scope: { name: 'hostile' },
            spans: spans.map((s) => ({
              traceId,
              spanId: s.spanId,
              ...(s.parentSpanId ? { parentSpanId: s.parentSpanId } : {}),
              name: s.name ?? 'step',
              kind: 1,
              startTimeUnixNano: s.start,
              ...(s.end ? { endTimeUnixNano: s.end } : {}),
              ...(s.attributes ? { attributes: s.attributes } : {}),
              status: {},
            })),
          },
        ],
      },
    ],
  });
}

/** A 16-hex-digit span id for a number. */
export const spanId = (n: number) => n.toString(16).padStart(16, '0');

/** A nanosecond time string for seconds after a fixed 2026 epoch second. */
export const nanos = (seconds: number) =>
  (1_780_000_000_000_000_000n + BigInt(Math.round(seconds * 1e9))).toString();

export function otlpFile(lines: string[]): Uint8Array {
  return new TextEncoder().encode(lines.join('\n') + '\n');
}

/** n spans, each the parent of the next, in lines of 1,000. */
export function otlpChain(n: number): Uint8Array {
  const lines: string[] = [];
  for (let from = 0; from < n; from += 1000) {
    const spans: OtlpSpan[] = [];
    for (let i = from; i < Math.min(n, from + 1000); i++)
      spans.push({
        spanId: spanId(i + 1),
        parentSpanId: i > 0 ? spanId(i) : undefined,
        start: nanos(i * 0.001),
        end: nanos(n * 0.001 + 1 - i * 0.0001),
      });
    lines.push(otlpLine(spans));
  }
  return otlpFile(lines);
}
