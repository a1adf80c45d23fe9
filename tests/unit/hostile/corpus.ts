import type { OpenedTrace } from '../../../src-main/core/open/open-trace-file';
import { unpackRow } from '../../../src-main/core/rows/packed-items';
import { legacyTorch, slimeDump, slimeDumpOf, zipBytes } from './container-writers';
import { PickleWriter, pickle, type Py } from './pickle-writer';
import { nanos, otlpChain, otlpFile, otlpLine, spanId } from './otlp-writer';
import { exportTrace } from '../../../src-main/core/export/export-trace';
import { READER_CASES } from './readers-49';

/**
 * The hostile-input corpus (issue 19): each case is a generator, not a blob, with what must
 * come out (a coded error, or the file opening with exact figures) and why it is here. The
 * numbers in `issue` are the issue's numbered findings. corpus.test.ts runs every case through
 * the one open pipeline with a time and memory bound; readers-fuzz.test.ts mutates them.
 *
 * Bounds are generous for a loaded 2-core machine, and still catch the quadratic and
 * exponential blowups the issue found (those took minutes or gigabytes on these inputs).
 */
export interface HostileCase {
  id: string;
  issue: string;
  why: string;
  /** the file's name (formats sniff by content; a .pt name routes undetected bytes to slime) */
  name: string;
  make: () => Uint8Array;
  /** a coded FormatError, or the file opens and `opens` checks exact figures */
  expect: { code: string } | { opens: (trace: OpenedTrace) => void };
  /** wall time allowed (ms) */
  maxMs?: number;
}

const span = (id: string, ts: number, parent?: string): Py => ({
  type: 'span_start',
  name: 'step',
  span_id: id,
  ts,
  ...(parent === undefined ? {} : { parent_span_id: parent }),
});

/** A list of n NONEs on the stack, built by MARK ... LIST, then memoised as memo 0. */
function bigListMemo(w: PickleWriter, n: number): PickleWriter {
  return w.op(0x28).repeat(n, 0x4e).op(0x6c).memoize();
}

export const HOSTILE_CASES: HostileCase[] = [
  {
    id: 'pickle-set-bomb',
    issue: '1',
    why: 'builtins.set applied 1,500 times to a million-element list copied 1.5 G elements (4 GB)',
    name: 'set-bomb.pt',
    make: () => {
      const w = bigListMemo(pickle().proto(), 1_000_000);
      w.op(0x30); // POP: the list stays in the memo
      w.op(0x5d); // the result list
      for (let i = 0; i < 1500; i++) w.global('builtins', 'set').get(0).op(0x85, 0x52, 0x61);
      return legacyTorch(w.stop().bytes());
    },
    expect: { code: 'pickle/too-large' },
  },
  {
    id: 'pickle-none-flood',
    issue: '1',
    why: 'millions of NONEs left on the stack cost 25 times the file',
    name: 'none-flood.pt',
    make: () => legacyTorch(pickle().proto().repeat(5_000_000, 0x4e).stop().bytes()),
    expect: { code: 'pickle/too-large' },
  },
  {
    id: 'pickle-stop-with-leftovers',
    issue: '1',
    why: 'STOP accepted a pickle with values still on its stack',
    name: 'leftovers.pt',
    make: () => legacyTorch(pickle().proto().op(0x4e, 0x4e, 0x4e).stop().bytes()),
    expect: { code: 'pickle/stack-not-empty' },
  },
  {
    id: 'slime-open-siblings',
    issue: '2',
    why: '20,000 open sibling spans took 18 s, 50,000 did not finish (a sibling scan per span)',
    name: 'open-siblings.pt',
    make: () => {
      const events: Py[] = [{ type: 'span_start', name: 'root', span_id: 'root', ts: 0 }];
      for (let i = 0; i < 50_000; i++) events.push(span(`s${i}`, 1 + i * 0.001, 'root'));
      events.push({ type: 'span_end', name: 'root', span_id: 'root', ts: 100 });
      return slimeDumpOf([events]);
    },
    expect: {
      opens: (t) => {
        const row = unpackRow(t.rows[0]);
        assertEqual(row.open_span_count, 50_000);
        assertEqual(row.closed_span_count, 1);
        // the last sibling has no later sibling: it is clipped by the row end (100, root's end)
        const last = row.items.find((i) => i.type === 'span' && i.span_id === 's49999');
        assertEqual(last?.type === 'span' ? last.attrs.end_attrs.clipped_by : null, 'row_end');
        const first = row.items.find((i) => i.type === 'span' && i.span_id === 's0');
        assertEqual(first?.type === 'span' ? first.display_end_ts : null, 1.001);
      },
    },
    maxMs: 15_000,
  },
  {
    id: 'slime-open-chain',
    issue: '2',
    why: 'a chain of open spans walked all ancestors per span, and depth recursed per level',
    name: 'open-chain.pt',
    make: () => {
      const events: Py[] = [];
      for (let i = 0; i < 50_000; i++) events.push(span(`c${i}`, i * 0.001));
      return slimeDumpOf([events]);
    },
    expect: {
      opens: (t) => {
        assertEqual(t.rows[0].open_span_count, 50_000);
        assertEqual(t.rows[0].lane_count, 50_000);
      },
    },
    maxMs: 15_000,
  },
  {
    id: 'zip-claims-2gb',
    issue: '3',
    why: 'a 2 MB deflated entry claiming 2 GB got a 2 GB buffer before inflating',
    name: 'claims-2gb.pt',
    make: () =>
      zipBytes([
        {
          name: 'archive/data.pkl',
          data: new Uint8Array(2 * 1024 * 1024),
          method: 8,
          claimedSize: 2 * 1024 ** 3,
        },
      ]),
    expect: { code: 'zip/inflate-too-large' },
  },
  {
    id: 'pickle-long4-bigints',
    issue: '7',
    why: '200 LONG4 integers of 64 KiB took 52 s (a BigInt shifted byte by byte)',
    name: 'bigints.pt',
    make: () => {
      const w = pickle().proto().op(0x5d, 0x28);
      const digits = new Uint8Array(65536).fill(0x5a);
      for (let i = 0; i < 200; i++) w.op(0x8b).u32(65536).raw(digits);
      return legacyTorch(w.op(0x65).stop().bytes());
    },
    // a bare list of 200 integers: samples without a trace, no rows
    expect: {
      opens: (t) => {
        assertEqual(t.summary.samples, 200);
        assertEqual(t.summary.untracedSamples, 200);
      },
    },
    maxMs: 5_000,
  },
  {
    id: 'pickle-append-to-tuple-deep',
    issue: '8',
    why: 'APPEND to a tuple nests past the depth limit top-down (through the memo)',
    name: 'tuple-append.pt',
    make: () => {
      const w = pickle().proto().op(0x29).memoize();
      for (let i = 0; i < 100_000; i++) w.get(i).op(0x29).memoize().op(0x61, 0x30);
      return legacyTorch(w.stop().bytes());
    },
    expect: { code: 'pickle/too-deep' },
  },
  {
    id: 'pickle-additems-deep',
    issue: '8',
    why: 'ADDITEMS nests sets past the depth limit top-down',
    name: 'additems.pt',
    make: () => {
      const w = pickle().proto().op(0x8f).memoize();
      for (let i = 0; i < 100_000; i++) w.get(i).op(0x28, 0x8f).memoize().op(0x90, 0x30);
      return legacyTorch(w.stop().bytes());
    },
    expect: { code: 'pickle/too-deep' },
  },
  {
    id: 'pickle-frozenset-deep',
    issue: '8',
    why: 'FROZENSET nested bottom-up without counting depth',
    name: 'frozenset.pt',
    make: () =>
      legacyTorch(pickle().proto().repeat(50_000, 0x28).repeat(50_000, 0x91).stop().bytes()),
    expect: { code: 'pickle/too-deep' },
  },
  {
    id: 'pickle-build-state-deep',
    issue: '8',
    why: 'BUILD merges state into a dict without counting depth',
    name: 'build-state.pt',
    make: () => {
      const w = pickle().proto().op(0x7d).memoize();
      // BUILD(d_i, {"k": d_i+1}): each dict gets the next as an attribute, top-down
      for (let i = 0; i < 100_000; i++)
        w.get(i).op(0x7d).str('k').op(0x7d).memoize().op(0x73, 0x62, 0x30);
      return legacyTorch(w.stop().bytes());
    },
    expect: { code: 'pickle/too-deep' },
  },
  {
    id: 'pickle-cycle',
    issue: '8',
    why: 'a list that contains itself sent every reader into endless recursion',
    name: 'cycle.pt',
    make: () => legacyTorch(pickle().proto().op(0x5d).memoize().get(0).op(0x61).stop().bytes()),
    expect: { code: 'pickle/cycle' },
  },
  {
    id: 'slime-deep-tuple-attrs',
    issue: '8',
    why: 'a million-deep tuple in span attributes overflowed the stack (an internal message)',
    name: 'deep-attrs.pt',
    make: () =>
      slimeDump((w) => {
        w.op(0x5d, 0x7d, 0x28).str('trace').op(0x7d, 0x28).str('events').op(0x5d, 0x7d, 0x28);
        w.str('type').str('span_start').str('ts').float(1).str('span_id').str('a');
        w.str('attrs').op(0x7d, 0x28).str('deep').op(0x29).repeat(1_000_000, 0x85);
        w.op(0x75, 0x75, 0x61, 0x75, 0x75, 0x61);
      }),
    expect: { code: 'pickle/too-deep' },
  },
  {
    id: 'legacy-negative-numel',
    issue: '8',
    why: 'a negative storage size in the legacy layout ended as "Invalid DataView length"',
    name: 'negative-numel.pt',
    make: () =>
      legacyTorch(pickle().proto().py([]).stop().bytes(), [
        { key: '0', numel: -5n, bytes: new Uint8Array(8) },
      ]),
    expect: { code: 'torch/bad-storage-size' },
  },
  {
    id: 'slime-dict-ids',
    issue: '9',
    why: 'one event whose span_id, parent_span_id, type or name is a dict failed the whole dump',
    name: 'dict-ids.pt',
    make: () =>
      slimeDumpOf([
        [
          span('a', 1),
          { type: 'span_start', name: 'x', span_id: { evil: 1 }, ts: 2 },
          { type: 'span_end', name: { evil: 1 }, span_id: 'a', ts: 3 },
          { type: { evil: 1 }, name: 'x', span_id: 'b', ts: 2.5 },
          { type: 'event', name: 'x', parent_span_id: { evil: 1 }, ts: 2.6 },
          { type: 'span_end', name: 'step', span_id: 'a', ts: 4 },
        ],
      ]),
    expect: {
      opens: (t) => {
        assertEqual(t.rows[0].closed_span_count, 1);
        assertEqual(t.rows[0].item_count, 1);
        assertEqual(
          t.summary.notices.includes(
            '4 trace events skipped: an id, type or name that is not a plain value.',
          ),
          true,
        );
      },
    },
  },
  {
    id: 'otlp-deep-attribute',
    issue: '8',
    why: 'a 10,000-deep attribute in one line refused the whole file (stack overflow)',
    name: 'deep-attr.jsonl',
    make: () => {
      // written as text: JSON.stringify itself overflows the stack on 10,000 levels
      const deep =
        '{"arrayValue":{"values":['.repeat(10_000) +
        '{"stringValue":"bottom"}' +
        ']}}'.repeat(10_000);
      const line = otlpLine([
        {
          spanId: spanId(2),
          start: nanos(1.5),
          end: nanos(1.7),
          attributes: [{ key: 'deep', value: 'DEEP' }],
        },
      ]).replace('"DEEP"', deep);
      return otlpFile([otlpLine([{ spanId: spanId(1), start: nanos(1), end: nanos(2) }]), line]);
    },
    // the deep value is cut to a note at 32 levels; both spans open
    expect: {
      opens: (t) => {
        assertEqual(t.summary.spans, 2);
        assertEqual(t.summary.skippedLines.count, 0);
      },
    },
  },
  {
    id: 'otlp-chain-200k-export',
    issue: '10',
    why: 'Perfetto export of a 200,000-deep parent chain failed with "Maximum call stack size exceeded"',
    name: 'chain.jsonl',
    make: () => otlpChain(200_000),
    expect: {
      opens: (t) => {
        assertEqual(t.summary.spans, 200_000);
        const exported = exportTrace(t, 'perfetto', 'chain.json');
        const events = (
          JSON.parse(Buffer.from(exported.bytes).toString('utf8')) as {
            traceEvents: { ph: string }[];
          }
        ).traceEvents;
        assertEqual(events.filter((e) => e.ph === 'X' || e.ph === 'b').length, 200_000);
      },
    },
    maxMs: 30_000,
  },
  {
    id: 'otlp-huge-timestamp',
    issue: '12',
    why: 'a timestamp of 10^400 ns made the duration "Infinity s"; the span is dropped instead',
    name: 'huge-ts.jsonl',
    make: () =>
      otlpFile([
        otlpLine([{ spanId: spanId(1), start: nanos(1), end: nanos(3) }]),
        otlpLine([{ spanId: spanId(2), start: '1' + '0'.repeat(400), end: nanos(2) }]),
      ]),
    expect: {
      opens: (t) => {
        assertEqual(t.summary.spans, 1);
        assertEqual(t.rows[0].duration, 2);
      },
    },
  },
  {
    id: 'otlp-zero-timestamp',
    issue: '12',
    why: 'a start of 0 (OTLP: not set) stretched the time axis back to 1970',
    name: 'zero-ts.jsonl',
    make: () =>
      otlpFile([
        otlpLine([{ spanId: spanId(1), start: nanos(1), end: nanos(3) }]),
        otlpLine([{ spanId: spanId(2), start: '0', end: nanos(2) }]),
      ]),
    expect: {
      opens: (t) => {
        assertEqual(t.summary.spans, 1);
        assertEqual(t.rows[0].start > 1e9, true);
      },
    },
  },
  {
    id: 'otlp-leading-whitespace',
    issue: '12',
    why: '70 KB of leading whitespace pushed the export out of the sniffed head',
    name: 'leading-space.jsonl',
    make: () =>
      otlpFile([
        ' '.repeat(70_000),
        otlpLine([{ spanId: spanId(1), start: nanos(1), end: nanos(2) }]),
      ]),
    expect: { opens: (t) => assertEqual(t.summary.spans, 1) },
  },
  {
    id: 'otlp-long-first-line',
    issue: '12',
    why: 'a first line longer than the 64 KB head must still be recognised and read',
    name: 'long-line.jsonl',
    make: () => {
      const spans = Array.from({ length: 2000 }, (_, i) => ({
        spanId: spanId(i + 1),
        start: nanos(i * 0.01),
        end: nanos(i * 0.01 + 0.005),
      }));
      return otlpFile([otlpLine(spans)]);
    },
    expect: {
      opens: (t) => {
        assertEqual(t.summary.spans, 2000);
      },
    },
  },
  {
    id: 'otlp-pretty-document-cut-off',
    issue: '12',
    why: 'a pretty-printed export cut off read as "465 lines not JSON"; it says it is cut off',
    name: 'pretty.json',
    make: () => {
      const spans = Array.from({ length: 40 }, (_, i) => ({
        spanId: spanId(i + 1),
        start: nanos(i),
        end: nanos(i + 0.5),
      }));
      const pretty = JSON.stringify(JSON.parse(otlpLine(spans)), null, 2);
      return new TextEncoder().encode(pretty.slice(0, Math.floor(pretty.length * 0.6)));
    },
    expect: { code: 'otlp/document-cut-off' },
  },
  {
    id: 'utf16-export',
    issue: '12',
    why: 'a UTF-16 file got a generic "unknown format"; it says what it is',
    name: 'utf16.jsonl',
    make: () => {
      const text = otlpLine([{ spanId: spanId(1), start: nanos(1), end: nanos(2) }]);
      return new Uint8Array(
        Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]),
      );
    },
    expect: { code: 'open/text-encoding' },
  },
  ...READER_CASES,
];

function assertEqual(actual: unknown, expected: unknown): void {
  if (actual !== expected) throw new Error(`expected ${String(expected)}, got ${String(actual)}`);
}
