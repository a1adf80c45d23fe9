import { readFileSync } from 'node:fs';
import { unpackRow } from '../../../src-main/core/rows/packed-items';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bytesSource } from '../../../src-main/core/bytes/byte-source';
import { parseTimelineRecords } from '../../../src-main/core/formats/slime-comm-timeline/parse-timeline-records';
import { openTraceFile } from '../../../src-main/core/open/open-trace-file';
import type { SpanItem } from '../../../src-main/core/model/row';
import { formatSummaryText } from '../../../src-main/cli/summary-output';

// Every pinned value below comes from tests/fixtures/run/README.md ("Expected counts", "Timeline
// v2/v1") and expected_counts.json (`timeline`), which check_run.py computed with json.loads.
const RUN = join(__dirname, '../../fixtures/run');
const fixture = (path: string) => readFileSync(join(RUN, path));
const open = (name: string, bytes: Uint8Array) => openTraceFile([bytesSource(name, bytes)]);

const WEIGHT_SYNC = [
  'engine_bucket_receive',
  'engine_load_weights',
  'weight_bucket_ready',
  'weight_bucket_send',
  'weight_convert',
];
const TRAINING = { train_forward_backward: 4, grad_sync: 4, optimizer_step: 4 };

function operations(rows: { items: { name: string }[] }[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const row of rows)
    for (const item of row.items) counts[item.name] = (counts[item.name] ?? 0) + 1;
  return counts;
}

describe('slime trainer communication timeline', () => {
  it.each([0, 1])(
    'schema 2, rank %i: 123 records (66 spans, 57 events), holes 36 80 124',
    (rank) => {
      const opened = open(
        `slime-trainer-${rank}.jsonl`,
        fixture(`comm_timeline/slime-trainer-${rank}.jsonl`),
      );
      expect(opened.summary.format).toBe('slime-comm-timeline');
      expect(opened.summary.samples).toBe(123);
      expect(opened.summary.spans).toBe(66);
      expect(opened.summary.events).toBe(57);
      expect(opened.summary.skippedLines.count).toBe(0);
      expect(opened.rows).toHaveLength(1);
      expect(opened.rows[0].source).toBe(`trainer ${rank}`);
      expect(opened.rows[0].sample_index).toBe(rank);
      expect(operations(opened.rows.map(unpackRow))).toEqual({
        ...Object.fromEntries([...WEIGHT_SYNC, 'weight_bucket_reusable'].map((op) => [op, 18])),
        ...TRAINING,
        weight_sync_complete: 3,
      });
      expect(opened.summary.notices).toContain(
        'sequence_id holes (cancelled spans, normal): 36, 80, 124',
      );
      expect(opened.summary.notices).toContain('schema_version 2');
    },
  );

  it.each([0, 1])(
    'schema 1, rank %i: 105 records (66 spans, 39 events), holes 30 68 106',
    (rank) => {
      const bytes = fixture(`comm_timeline_v1/slime-trainer-${rank}.jsonl`);
      const opened = open(`slime-trainer-${rank}.jsonl`, bytes);
      expect(opened.summary.samples).toBe(105);
      expect(opened.summary.spans).toBe(66);
      expect(opened.summary.events).toBe(39);
      expect(operations(opened.rows.map(unpackRow))).toEqual({
        ...Object.fromEntries(WEIGHT_SYNC.map((op) => [op, 18])),
        ...TRAINING,
        weight_sync_complete: 3,
      });
      const read = parseTimelineRecords(bytesSource('t.jsonl', bytes));
      expect(read.sequenceHoles).toEqual([30, 68, 106]);
      expect(read.sequenceHoleCount).toBe(3);
      expect(read.schemaVersions).toEqual([1]);
    },
  );

  it('a sequence_id of 10^9 (a broken or hostile line) lists 1000 holes and counts them all', () => {
    // found by the readers fuzz run: the holes were built one by one (a V8 fatal array size)
    const lines = new TextDecoder()
      .decode(fixture('comm_timeline/slime-trainer-0.jsonl'))
      .trimEnd()
      .split('\n');
    const last = JSON.parse(lines[lines.length - 1]) as { sequence_id: number };
    const first = (JSON.parse(lines[0]) as { sequence_id: number }).sequence_id;
    lines[lines.length - 1] = JSON.stringify({ ...last, sequence_id: 1e9 });
    const text = `${lines.join('\n')}\n`;
    const started = performance.now();
    const read = parseTimelineRecords(bytesSource('t.jsonl', new TextEncoder().encode(text)));
    expect(performance.now() - started).toBeLessThan(5000);
    expect(read.sequenceHoles).toHaveLength(1000);
    expect(read.sequenceHoles.slice(0, 3)).toEqual([36, 80, 124]);
    // ids first..1e9 less the 123 records' ids (the last one now 1e9, its old id a hole too)
    expect(read.sequenceHoleCount).toBe(1e9 - first + 1 - 123);
  });

  it('puts spans on the wall clock in epoch seconds: first_ns and last_ns of rank 0 (v2)', () => {
    const opened = open('slime-trainer-0.jsonl', fixture('comm_timeline/slime-trainer-0.jsonl'));
    // first_ns 1787648402126566082, last_ns 1787648466967159903 (the last weight_sync_complete)
    expect(opened.summary.globalStartSec).toBeCloseTo(1787648402.126566, 5);
    expect(opened.summary.globalEndSec).toBeCloseTo(1787648466.96716, 5);
  });

  it("keeps each record's fields for details and nests bucket spans by time", () => {
    const opened = open('slime-trainer-0.jsonl', fixture('comm_timeline/slime-trainer-0.jsonl'));
    const sends = unpackRow(opened.rows[0]).items.filter(
      (i): i is SpanItem => i.type === 'span' && i.name === 'weight_bucket_send',
    );
    expect(sends).toHaveLength(18);
    // the first record of the file: bucket 0 of version 1, 1 GiB, nccl_or_cuda_ipc
    const first = unpackRow(opened.rows[0]).items.find((i) => i.span_id === '0') as SpanItem;
    expect(first.name).toBe('weight_convert');
    expect(first.attrs.start_attrs).toMatchObject({
      bucket_id: 0,
      weight_version: 1,
      message_bytes: 1073741824,
      transport: 'nccl_or_cuda_ipc',
      global_step: null,
    });
    expect(first.display_end_ts - first.start_ts).toBeCloseTo(0.357774449, 6);
    const steps = unpackRow(opened.rows[0]).items.filter((i) => i.name === 'optimizer_step');
    expect(steps.map((s) => (s.type === 'span' ? s.attrs.start_attrs.global_step : null))).toEqual([
      0, 1, 2, 3,
    ]);
  });

  it('skips and counts a cut-off last line and lines that are not records', () => {
    const text = fixture('comm_timeline/slime-trainer-1.jsonl').toString('utf8');
    const lines = text.trimEnd().split('\n');
    const broken = [
      lines[0],
      'not json',
      '{"a":1}',
      ...lines.slice(1, -1),
      lines[lines.length - 1].slice(0, 40),
    ].join('\n');
    const opened = open('slime-trainer.rank-1.jsonl', new TextEncoder().encode(broken));
    expect(opened.summary.samples).toBe(122);
    expect(opened.summary.skippedLines.count).toBe(3);
    expect(opened.summary.skippedLines.examples).toEqual([
      { line: 2, reason: 'not JSON' },
      { line: 3, reason: 'no operation' },
      { line: 125, reason: 'cut off (no newline at the end, not JSON)' },
    ]);
    expect(opened.summary.notices).toContain('3 lines skipped (first: line 2 not JSON)');
  });

  it('lines split over chunks, CRLF and a byte-order mark read as the plain file (the shared walk)', () => {
    const bytes = fixture('comm_timeline/slime-trainer-0.jsonl');
    const plain = parseTimelineRecords(bytesSource('t.jsonl', bytes));
    const text = bytes.toString('utf8');
    const windows = `\ufeff${text.replace(/\n/g, '\r\n')}`;
    // a source handing out 100 bytes a read, into the buffer it is given: every line (~900
    // bytes) lies over several reads of one buffer
    const encoded = new TextEncoder().encode(windows);
    const small = {
      name: 't.jsonl',
      size: encoded.length,
      read(offset: number, length: number, into?: Uint8Array) {
        const part = encoded.subarray(
          offset,
          Math.min(offset + Math.min(length, 100), encoded.length),
        );
        if (!into || into.length < part.length) return part.slice();
        into.set(part);
        return into.subarray(0, part.length);
      },
    };
    const read = parseTimelineRecords(small);
    expect(read.skippedLines.count).toBe(0);
    expect(read.records.map((r) => [r.line, r.sequenceId, r.startSec, r.endSec])).toEqual(
      plain.records.map((r) => [r.line, r.sequenceId, r.startSec, r.endSec]),
    );
    expect(read.records.map((r) => r.fields)).toEqual(plain.records.map((r) => r.fields));
  });

  it("a single skipped line is said once in summary's text, as one line", () => {
    const text = fixture('comm_timeline/slime-trainer-0.jsonl').toString('utf8');
    // the last record cut 60 bytes before its end, as a crash leaves it
    const trace = open('slime-trainer-0.jsonl', new TextEncoder().encode(text.slice(0, -60)));
    expect(trace.summary.notices).toContain(
      '1 line skipped (first: line 123 cut off (no newline at the end, not JSON))',
    );
    const lines = formatSummaryText(trace).split('\n');
    expect(lines).toContain('skipped   1 line: line 123 cut off (no newline at the end, not JSON)');
    expect(lines.filter((l) => l.includes('skipped'))).toHaveLength(1);
  });

  it('starts a record without api_launch_timestamp_ns at its completion; one without any time is skipped', () => {
    const lines = fixture('comm_timeline/slime-trainer-0.jsonl')
      .toString('utf8')
      .trimEnd()
      .split('\n');
    const noLaunch = JSON.parse(lines[0]) as Record<string, unknown>;
    noLaunch.api_launch_timestamp_ns = null;
    noLaunch.api_return_timestamp_ns = null;
    const noTime = { ...noLaunch, completion_timestamp_ns: null };
    const text = [JSON.stringify(noLaunch), JSON.stringify(noTime), ...lines.slice(1)].join('\n');
    const read = parseTimelineRecords(bytesSource('t.jsonl', new TextEncoder().encode(text)));
    expect(read.records).toHaveLength(123);
    // completion_timestamp_ns of the first record: 1787648402484340648
    expect(read.records[0].startSec).toBeCloseTo(1787648402.48434, 5);
    expect(read.skippedLines).toEqual({
      count: 1,
      examples: [{ line: 2, reason: 'no timestamp' }],
    });
  });

  it('past 10,000 processes folds the rest into one last row, and says how many', () => {
    // both ranks' real records, then one real event record each for ranks 2 to 10,049
    const lines = (path: string) => fixture(path).toString('utf8').trimEnd().split('\n');
    const rank0 = lines('comm_timeline/slime-trainer-0.jsonl');
    const rank1 = lines('comm_timeline/slime-trainer-1.jsonl');
    const event = rank1
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((r) => r.record_type === 'event')!;
    const more = Array.from({ length: 10_048 }, (_, k) =>
      JSON.stringify({ ...event, rank: k + 2 }),
    );
    const text = `${[...rank0, ...more, ...rank1].join('\n')}\n`;
    const opened = open('many.jsonl', new TextEncoder().encode(text));
    expect(opened.summary.samples).toBe(123 + 123 + 10_048);
    expect(opened.rows).toHaveLength(10_001);
    // ranks in numeric order: rank 1's records, though last in the file, are the second row
    expect(opened.rows.slice(0, 3).map((r) => [r.source, r.item_count])).toEqual([
      ['trainer 0', 123],
      ['trainer 1', 123],
      ['trainer 2', 1],
    ]);
    expect(opened.rows[9_999].source).toBe('trainer 9999');
    const folded = opened.rows[10_000];
    expect(folded.source).toBe('trainer 10000 to trainer 10049 (50 processes folded)');
    expect(folded.sample_index).toBe(10_000);
    expect(folded.item_count).toBe(50);
    const ranks = unpackRow(folded).items.map((i) => (i.type === 'event' ? i.attrs.rank : null));
    expect(new Set(ranks)).toEqual(new Set(Array.from({ length: 50 }, (_, k) => 10_000 + k)));
    expect(opened.summary.notices).toContain(
      '10,050 processes (role, rank): the first 10,000 are rows, the other 50 folded into the last row',
    );
  });

  it('is found by content whatever the name (.rank-N, .role-X suffixes), and not for OTLP lines', () => {
    const head = fixture('comm_timeline/slime-trainer-0.jsonl').subarray(0, 65536);
    for (const name of ['timeline.rank-3.jsonl', 'timeline.role-rollout.rank-0.jsonl', 'x.log']) {
      expect(open(name, head.subarray(0, head.lastIndexOf(10) + 1)).summary.format).toBe(
        'slime-comm-timeline',
      );
    }
    expect(open('otel.json', fixture('sglang_otel_trace.json')).summary.format).toBe('otlp');
  });

  it('refuses a file with no record, with a coded error naming it', () => {
    expect(() =>
      open(
        'empty.jsonl',
        new TextEncoder().encode(
          '{"framework":"slime","schema_version":2,"sequence_id":0,"operation":"x"}\n',
        ),
      ),
    ).toThrow(/^the file holds no timeline record/);
  });
});
