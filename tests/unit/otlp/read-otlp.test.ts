import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readOtlp, sniffOtlp } from '../../../src-main/core/formats/otlp/read-otlp';
import { findRotatedSet } from '../../../src-main/core/formats/otlp/rotated-set';
import { bytesSource, type ByteSource } from '../../../src-main/core/bytes/byte-source';
import type { SpanItem } from '../../../src-main/core/model/row';
import { OTLP, fixtureSource } from '../../support/fixtures';
import { plainOtlpCounts } from '../../support/otlp-plain-count';
import { otlpWithoutRouter } from '../../support/otlp-without-router';

const read = (...names: string[]) => readOtlp(names.map((n) => fixtureSource(resolve(OTLP, n))));

/** Counts the fixture README (tests/fixtures/otlp/README.md) gives for each file. */
const COUNTS: [string, { spans: number; skipped: number }][] = [
  ['sglang_otel_trace.json', { spans: 1396, skipped: 0 }],
  ['roll_traces.jsonl', { spans: 2348, skipped: 0 }],
  ['roll_traces.1.jsonl', { spans: 801, skipped: 0 }],
  ['otlp_truncated.jsonl', { spans: 56, skipped: 1 }],
  // 16 lines, 5 valid (README): the other 11 are skipped
  ['otlp_mixed_garbage.jsonl', { spans: 36, skipped: 11 }],
  ['otlp_empty.jsonl', { spans: 0, skipped: 0 }],
];

describe('OTLP fixtures open with the counts their README gives', () => {
  for (const [name, counts] of COUNTS) {
    it(name, () => {
      const doc = read(name);
      expect(doc.spans).toBe(counts.spans);
      expect(doc.skippedLines.count).toBe(counts.skipped);
      // traces, span events and links against a plain JSON.parse of the file (no code of ours)
      const plain = plainOtlpCounts(resolve(OTLP, name));
      expect(plain.spans).toBe(counts.spans);
      expect([doc.traces, doc.events, doc.links]).toEqual([
        plain.traces,
        plain.events,
        plain.links,
      ]);
    });
  }

  it('the truncated file says which line was cut off', () => {
    expect(read('otlp_truncated.jsonl').skippedLines.examples).toEqual([
      { line: 7, reason: 'cut off' },
    ]);
  });

  it('mixed garbage: every bad line is named, the five valid lines open', () => {
    const doc = read('otlp_mixed_garbage.jsonl');
    const lines = doc.skippedLines.examples.map((e) => e.line);
    for (const valid of [1, 3, 6, 12, 16]) expect(lines).not.toContain(valid);
    expect(doc.skippedLines.examples.some((e) => e.reason.includes('logs'))).toBe(true);
    expect(doc.notices[0]).toMatch(/^11 lines skipped: line 2 /);
  });

  it('an empty file holds no spans', () => {
    expect(read('otlp_empty.jsonl').notices).toContain('The file holds no spans.');
  });

  it('detects OTLP by content, not name', () => {
    expect(sniffOtlp(readFileSync(resolve(OTLP, 'sglang_otel_trace.json')).subarray(0, 4096))).toBe(
      true,
    );
    expect(sniffOtlp(new TextEncoder().encode('{"resourceLogs": []}'))).toBe(false);
  });
});

describe('SGLang and ROLL structure', () => {
  it('SGLang: a request row nests router, request roots and threads; threads are labelled lanes', () => {
    const doc = read('sglang_otel_trace.json');
    const row = doc.rows[0];
    const spans = row.items.filter((i): i is SpanItem => i.type === 'span');
    expect(spans.some((s) => s.name === 'http_request' && s.service === 'smg')).toBe(true);
    const threads = spans.filter((s) => typeof s.attrs.start_attrs.thread_label === 'string');
    expect(threads.length).toBeGreaterThan(0);
    expect(
      threads.every(
        (t) => /TP\d/.test(t.lane_label ?? '') || /Tokenizer|Controller/.test(t.lane_label ?? ''),
      ),
    ).toBe(true);
    // every slice sits in a lane of its own thread's group, below the thread span
    const byId = new Map(spans.map((s) => [s.span_id, s]));
    for (const slice of spans.filter(
      (s) => byId.get(s.parent_span_id ?? '')?.attrs.start_attrs.thread_label !== undefined,
    )) {
      const thread = byId.get(slice.parent_span_id!)!;
      expect(slice.lane).toBeGreaterThan(thread.lane);
      expect(slice.lane_label).toBe(thread.lane_label);
    }
    // prefill and decode halves are one row under the router span
    expect(spans.some((s) => /^prefill Req/.test(s.name))).toBe(true);
    expect(spans.some((s) => /^decode Req/.test(s.name))).toBe(true);
  });

  it('SGLang: links to previous slices resolve, span events are markers, the aborted request is an error', () => {
    const doc = read('sglang_otel_trace.json');
    const spans = doc.rows.flatMap((r) => r.items).filter((i): i is SpanItem => i.type === 'span');
    // reader output against the file itself (plain JSON.parse), not the reader's own counters
    const plain = plainOtlpCounts(resolve(OTLP, 'sglang_otel_trace.json'));
    const links = spans.flatMap((s) => s.links ?? []);
    expect(links.length).toBe(plain.links);
    // slices link to the previous slice of their request (README): every link resolves
    expect(links.filter((l) => l.dangling)).toEqual([]);
    const events = doc.rows.flatMap((r) => r.items).filter((i) => i.type === 'event');
    expect(events.length).toBe(plain.events);
    expect(events.filter((e) => e.name === 'schedule').length).toBe(
      plain.eventAttrs.get('schedule')!.length,
    );
    // exactly one aborted request (README), and it is the one trace with ERROR spans
    expect(plain.errorTraces).toBe(1);
    expect(doc.rows.filter((r) => r.status === 'error')).toHaveLength(1);
  });

  it('ROLL: one row per pipeline step, one lane group per service instance; the TimeoutError is marked with its stack', () => {
    const doc = read('roll_traces.jsonl');
    const steps = doc.rows.filter((r) => r.label === 'pipeline_step');
    expect(steps.length).toBeGreaterThan(10);
    const step = steps[0];
    const labels = new Set(step.items.map((i) => i.lane_label));
    expect([...labels].some((l) => l?.startsWith('driver'))).toBe(true);
    expect([...labels].some((l) => l?.startsWith('scheduler'))).toBe(true);
    const exceptions = doc.rows
      .flatMap((r) => r.items)
      .filter((i) => i.type === 'event' && i.name === 'exception');
    expect(exceptions).toHaveLength(3);
    expect(exceptions[0].error).toBe(true);
    expect(String((exceptions[0].attrs as Record<string, unknown>)['exception.type'])).toContain(
      'TimeoutError',
    );
    // the stack as the file holds it (plain JSON.parse)
    const stack = plainOtlpCounts(resolve(OTLP, 'roll_traces.jsonl')).eventAttrs.get(
      'exception',
    )![0]['exception.stacktrace'];
    expect(String(stack)).toMatch(/TimeoutError/);
    expect((exceptions[0].attrs as Record<string, unknown>)['exception.stacktrace']).toBe(stack);
  });

  it('a rotated set opens oldest first, and the step that straddles the rotation is one row', () => {
    const set = findRotatedSet(resolve(OTLP, 'roll_traces.1.jsonl'));
    expect(set.map((p) => p.split('/').pop())).toEqual([
      'roll_traces.jsonl',
      'roll_traces.1.jsonl',
    ]);
    const joined = readOtlp(set.map((p) => fixtureSource(p)));
    const separate = read('roll_traces.jsonl').traces + read('roll_traces.1.jsonl').traces;
    expect(joined.spans).toBe(2348 + 801);
    expect(joined.traces).toBe(separate - 1);
  });
});

describe('encodings', () => {
  const line = (o: unknown) => JSON.stringify(o);
  const doc = (lines: string[]) =>
    readOtlp([bytesSource('x.jsonl', new TextEncoder().encode(lines.join('\n')))]);

  it('base64 ids, bare int64 numbers, enum names, snake_case keys, every status shape', () => {
    const traceB64 = Buffer.from('0123456789abcdef0123456789abcdef', 'hex').toString('base64');
    const spanB64 = Buffer.from('0011223344556677', 'hex').toString('base64');
    const result = doc([
      line({
        resource_spans: [
          {
            resource: { attributes: [{ key: 'service.name', value: { string_value: 'svc' } }] },
            scope_spans: [
              {
                spans: [
                  {
                    trace_id: traceB64,
                    span_id: spanB64,
                    name: 'root',
                    kind: 'SPAN_KIND_SERVER',
                    start_time_unix_nano: 1780000000000000000,
                    end_time_unix_nano: '1780000000500000000',
                    status: { code: 'STATUS_CODE_ERROR', message: 'boom' },
                  },
                  {
                    traceId: traceB64,
                    spanId: 'AAAAAAAAAAE=',
                    parentSpanId: spanB64,
                    name: 'child',
                    kind: 3,
                    startTimeUnixNano: '1780000000100000123',
                    endTimeUnixNano: '1780000000200000000',
                    status: {},
                  },
                ],
              },
            ],
          },
        ],
      }),
    ]);
    expect(result.spans).toBe(2);
    const [row] = result.rows;
    expect(row.trace_id).toBe('0123456789abcdef0123456789abcdef');
    const root = row.items.find((i) => i.name === 'root') as SpanItem;
    const child = row.items.find((i) => i.name === 'child') as SpanItem;
    expect(root.span_id).toBe('0011223344556677');
    expect(root.error).toBe(true);
    expect(root.otel?.kind).toBe('SERVER');
    expect(child.otel?.kind).toBe('CLIENT');
    expect(child.parent_span_name).toBe('root');
    // nanoseconds beyond 2^53 keep sub-microsecond order: 100000123 ns after the root start
    expect(child.start_ts - root.start_ts).toBeCloseTo(0.100000123, 6);
  });

  it('times are exact to the nanosecond split: whole seconds plus nanoseconds, bad digits refused', () => {
    const at = (start: unknown) =>
      doc([
        line({
          resourceSpans: [
            {
              scopeSpans: [
                {
                  spans: [
                    {
                      traceId: 'ab'.repeat(16),
                      spanId: 'cd'.repeat(8),
                      name: 's',
                      startTimeUnixNano: start,
                      endTimeUnixNano: '1780000000999999999',
                    },
                  ],
                },
              ],
            },
          ],
        }),
      ]);
    const start = (d: ReturnType<typeof at>) => (d.rows[0].items[0] as SpanItem).start_ts;
    expect(start(at('1780000000123456789'))).toBe(1780000000 + 123456789 / 1e9);
    expect(start(at('999'))).toBe(999 / 1e9);
    expect(at('17800000001234x6789').spans).toBe(0);
    expect(at('').spans).toBe(0);
  });

  it('one copy of what repeats: resources, ids and names are shared across lines, attributes stay per span', () => {
    const resource = {
      attributes: [
        { key: 'service.name', value: { stringValue: 'worker' } },
        { key: 'service.instance.id', value: { stringValue: 'w0' } },
      ],
    };
    const span = (id: string, attrs: unknown[]) => ({
      traceId: 'ab'.repeat(16),
      spanId: id,
      name: 'step',
      startTimeUnixNano: '1780000000000000000',
      endTimeUnixNano: '1780000001000000000',
      attributes: attrs,
    });
    const result = doc([
      line({
        resourceSpans: [
          {
            resource,
            scopeSpans: [
              { spans: [span('0'.repeat(15) + '1', [{ key: 'k', value: { intValue: '1' } }])] },
            ],
          },
        ],
      }),
      line({
        resourceSpans: [
          {
            resource,
            scopeSpans: [
              { spans: [span('0'.repeat(15) + '2', [{ key: 'k', value: { intValue: '2' } }])] },
            ],
          },
        ],
      }),
    ]);
    const [a, b] = result.rows[0].items as SpanItem[];
    expect(a.otel?.resource).toBe(b.otel?.resource);
    expect(a.otel?.resource).toEqual({ 'service.name': 'worker', 'service.instance.id': 'w0' });
    expect(a.attrs.start_attrs).toEqual({ k: 1 });
    expect(b.attrs.start_attrs).toEqual({ k: 2 });
    // a resource whose string value looks like another value's JSON is still its own resource
    const tricky = doc([
      line({
        resourceSpans: [
          {
            resource: { attributes: [{ key: 'x', value: { stringValue: 'j{"intValue":"1"}' } }] },
            scopeSpans: [{ spans: [span('0'.repeat(15) + '3', [])] }],
          },
        ],
      }),
      line({
        resourceSpans: [
          {
            resource: { attributes: [{ key: 'x', value: { intValue: '1' } }] },
            scopeSpans: [{ spans: [span('0'.repeat(15) + '4', [])] }],
          },
        ],
      }),
    ]);
    const resources = tricky.rows[0].items.map((i) => (i as SpanItem).otel?.resource);
    expect(resources).toEqual([{ x: 'j{"intValue":"1"}' }, { x: 1 }]);
  });

  it('parent cycles end like roots: every span keeps a depth and a lane, threads included', () => {
    const T = 'ab'.repeat(16);
    const sp = (id: string, parent: string, start: number, attrs: Record<string, string> = {}) => ({
      traceId: T,
      spanId: id.repeat(16),
      parentSpanId: parent.repeat(16),
      name: id,
      startTimeUnixNano: String(1e18 + start * 1e9),
      endTimeUnixNano: String(1e18 + (start + 1) * 1e9),
      attributes: Object.entries(attrs).map(([key, v]) => ({ key, value: { stringValue: v } })),
    });
    const rowOf = (spans: unknown[]) =>
      doc([line({ resourceSpans: [{ scopeSpans: [{ spans }] }] })]).rows[0].items as SpanItem[];
    // a <-> b, c its own parent, d below a
    const plain = rowOf([sp('a', 'b', 0), sp('b', 'a', 1), sp('c', 'c', 2), sp('d', 'a', 3)]);
    const depth = Object.fromEntries(plain.map((s) => [s.name, [s.depth, s.lane]]));
    expect(depth).toEqual({ a: [1, 1], b: [0, 0], c: [0, 0], d: [2, 2] });
    // a thread span inside a cycle still gathers its slices; a cycle without one stays above
    const threaded = rowOf([
      sp('t', 'x', 0, { thread_label: 'Scheduler' }),
      sp('x', 't', 1),
      sp('y', 'x', 2),
      sp('p', 'q', 3),
      sp('q', 'p', 4),
    ]);
    const lane = Object.fromEntries(threaded.map((s) => [s.name, [s.lane, s.lane_label ?? null]]));
    expect(lane).toEqual({
      p: [1, null],
      q: [0, null],
      t: [2, 'Scheduler'],
      x: [3, 'Scheduler'],
      y: [3, 'Scheduler'],
    });
  });

  it('a trace of 200k spans is one row (no argument-spread limits on huge traces)', () => {
    const spans = Array.from({ length: 200_000 }, (_, i) => ({
      traceId: 'ef'.repeat(16),
      spanId: (i + 1).toString(16).padStart(16, '0'),
      parentSpanId: i === 0 ? '' : '0'.repeat(15) + '1',
      name: i === 0 ? 'root' : 'child',
      startTimeUnixNano: String(1780000000000000000n + BigInt(i) * 1000n),
      endTimeUnixNano: String(1780000000000000000n + BigInt(i) * 1000n + 500n),
    }));
    const result = doc([line({ resourceSpans: [{ scopeSpans: [{ spans }] }] })]);
    expect(result.rows).toHaveLength(1);
    expect(result.rows[0].item_count).toBe(200_000);
    expect(Math.max(...result.rows[0].items.slice(0, 1000).map((i) => i.depth))).toBe(1);
  });

  it('one pretty-printed export, or a list of them, opens like its JSON lines; a byte-order mark is ignored', () => {
    const text = readFileSync(resolve(OTLP, 'sglang_otel_trace.json'), 'utf8');
    const exports = text
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as unknown);
    const asLines = doc(text.split('\n'));
    const pretty = (value: unknown) => new TextEncoder().encode(JSON.stringify(value, null, 2));
    expect(sniffOtlp(pretty(exports))).toBe(true);
    const asList = readOtlp([bytesSource('list.json', pretty(exports))]);
    expect(asList.spans).toBe(1396);
    expect(asList.skippedLines.count).toBe(0);
    expect(JSON.stringify(asList.rows)).toBe(JSON.stringify(asLines.rows));
    const one = readOtlp([bytesSource('one.json', pretty(exports[0]))]);
    const first = exports[0] as { resourceSpans: { scopeSpans: { spans: unknown[] }[] }[] };
    expect(one.spans).toBe(
      first.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((ss) => ss.spans)).length,
    );
    const bom = readOtlp([bytesSource('bom.jsonl', new TextEncoder().encode(`\uFEFF${text}`))]);
    expect(bom.spans).toBe(1396);
    expect(bom.skippedLines.count).toBe(0);
    // lines that are neither JSON lines nor one document still say why each was skipped
    const garbage = doc(['not json', '', '{"resourceSpans": [']);
    expect(garbage.spans).toBe(0);
    expect(garbage.skippedLines.examples.map((e) => e.reason)).toEqual([
      'not JSON',
      'blank',
      'cut off',
    ]);
  });

  it('reads identically through tiny chunks', () => {
    for (const name of [
      'sglang_otel_trace.json',
      'otlp_mixed_garbage.jsonl',
      'otlp_truncated.jsonl',
    ]) {
      const bytes = new Uint8Array(readFileSync(resolve(OTLP, name)));
      const whole = readOtlp([bytesSource(name, bytes)]);
      for (const chunk of [7, 13]) {
        const source: ByteSource = {
          name,
          size: bytes.length,
          read: (o, n) => bytes.slice(o, o + Math.min(n, chunk)),
        };
        const chunked = readOtlp([source]);
        expect(JSON.stringify(chunked.rows)).toBe(JSON.stringify(whole.rows));
        expect(chunked.skippedLines).toEqual(whole.skippedLines);
      }
    }
  });
});

describe('PD halves without the router (ours)', () => {
  const half = (traceId: string, spanId: string, role: string, room: number, startNs: bigint) =>
    JSON.stringify({
      resourceSpans: [
        {
          resource: { attributes: [{ key: 'service.name', value: { stringValue: 'sglang' } }] },
          scopeSpans: [
            {
              spans: [
                {
                  traceId,
                  spanId,
                  name: `${role} Req 0123abcd`,
                  kind: 1,
                  startTimeUnixNano: String(startNs),
                  endTimeUnixNano: String(startNs + 500_000_000n),
                  attributes: [
                    { key: 'bootstrap_room', value: { intValue: String(room) } },
                    { key: 'rid', value: { stringValue: '0123abcd' } },
                  ],
                },
              ],
            },
          ],
        },
      ],
    });
  const t0 = 1780000000000000000n;
  const text = [
    half('aa'.repeat(16), '01'.repeat(8), 'prefill', 7, t0),
    half('bb'.repeat(16), '02'.repeat(8), 'decode', 7, t0 + 100_000_000n),
    half('cc'.repeat(16), '03'.repeat(8), 'prefill', 8, t0 + 200_000_000n),
  ].join('\n');
  const source = () => bytesSource('pd.jsonl', new TextEncoder().encode(text));

  it('are one row per bootstrap_room by default, and separate rows when asked apart', () => {
    const joined = readOtlp([source()]);
    expect(joined.rows).toHaveLength(2);
    // room 7 has both halves in separate traces; room 8 only its prefill half
    expect(joined.bootstrapRooms).toBe(1);
    const pair = joined.rows.find((r) => r.items.length === 2)!;
    expect(pair.items.map((i) => i.name).sort()).toEqual([
      'decode Req 0123abcd',
      'prefill Req 0123abcd',
    ]);
    // the joined row is named by its decode half (the response comes from decode)
    expect(pair.label).toBe('decode Req 0123abcd');
    expect(pair.source).toBe('sglang');
    expect(readOtlp([source()], { joinByBootstrapRoom: false }).rows).toHaveLength(3);
  });

  it('the SGLang fixture through the router has both halves in one trace: nothing to join', () => {
    const doc = read('sglang_otel_trace.json');
    expect(doc.bootstrapRooms).toBe(0);
    expect(doc.rows).toHaveLength(20);
  });

  it('the SGLang fixture without the router: 40 halves, joined into 20 requests by default', () => {
    const text = otlpWithoutRouter(readFileSync(resolve(OTLP, 'sglang_otel_trace.json'), 'utf8'));
    const bytes = () => bytesSource('no-router.json', new TextEncoder().encode(text));
    const apart = readOtlp([bytes()], { joinByBootstrapRoom: false });
    expect(apart.rows).toHaveLength(40);
    expect(apart.bootstrapRooms).toBe(20);
    const joined = readOtlp([bytes()]);
    expect(joined.rows).toHaveLength(20);
    for (const row of joined.rows) {
      const roots = row.items.filter((i) => i.type === 'span' && / Req /.test(i.name));
      expect(roots.map((r) => r.name.split(' ')[0]).sort()).toEqual(['decode', 'prefill']);
      expect(row.label).toMatch(/^decode Req [0-9a-f]{8}$/);
    }
  });
});

describe('OTLP rows are named by their request', () => {
  it('SGLang rows through the router: the decode request root, not the router’s http_request', () => {
    const rows = read('sglang_otel_trace.json').rows;
    for (const row of rows) {
      const decode = row.items.find(
        (i): i is SpanItem => i.type === 'span' && i.name.startsWith('decode Req '),
      )!;
      expect(row.label).toBe(decode.name);
      expect(row.source).toBe('sglang');
    }
  });

  it('ROLL rows keep their root span’s name and service', () => {
    const row = read('roll_traces.jsonl').rows[0];
    const root = row.items.find((i): i is SpanItem => i.type === 'span' && i.depth === 0)!;
    expect(row.label).toBe(root.name);
    expect(row.source).toBe(root.otel!.resource!['service.name']);
  });
});

describe('rotated sets in a folder', () => {
  it('a folder of mixed files opens its largest rotated set, oldest first', () => {
    expect(findRotatedSet(OTLP).map((p) => p.split('/').pop())).toEqual([
      'roll_traces.jsonl',
      'roll_traces.1.jsonl',
    ]);
  });
});

describe('OTLP lines are read by the shared line reader', () => {
  const lines = readFileSync(resolve(OTLP, 'roll_traces.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean);
  const whole = readOtlp([bytesSource('plain.jsonl', Buffer.from(lines.join('\n') + '\n'))]);

  it('CR LF line ends and a byte-order mark open as the plain file does', () => {
    const text = '\ufeff' + lines.join('\r\n') + '\r\n';
    const doc = readOtlp([bytesSource('x.jsonl', Buffer.from(text))]);
    expect([doc.spans, doc.skippedLines.count]).toEqual([whole.spans, 0]);
  });

  it('a line over 64 MiB is skipped and counted, never assembled; the rest open', () => {
    const huge = '{"resourceSpans":[{"x":"' + 'a'.repeat(65 * 1024 * 1024) + '"}]}';
    const text = [lines[0], huge, ...lines.slice(1)].join('\n') + '\n';
    const doc = readOtlp([bytesSource('x.jsonl', Buffer.from(text))]);
    expect(doc.spans).toBe(whole.spans);
    expect(doc.skippedLines.count).toBe(1);
    expect(doc.skippedLines.examples[0].line).toBe(2);
    expect(doc.skippedLines.examples[0].reason).toMatch(/longer than 64 MiB/);
  });
});
