import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bytesSource, type ByteSource } from '../../../src-main/core/bytes/byte-source';
import { openFileSource } from '../../../src-main/core/bytes/file-source';
import type { DictRecords } from '../../../src-main/core/formats/pickle/dict-records';
import { readSlimeDump } from '../../../src-main/core/formats/slime/read-slime-dump';
import { sampleRow } from '../../../src-main/core/formats/slime/open/incremental-rows';
import { isDict, type PyValue } from '../../../src-main/core/model/py-value';
import { PerfSummaryBuilder } from '../../../src-main/core/rows/perf-summary';
import {
  TRACE_EVENT_RECORDS,
  TraceEventRecord,
} from '../../../src-main/core/rows/trace-event-record';
import { FIXTURES } from '../../support/fixtures';
import { writeSlimeDump } from '../../bench/slime-dump-writer.mjs';
import { slimeDump } from '../hostile/container-writers';
import { pickle, type PickleWriter } from '../hostile/pickle-writer';
import { PickleCursor } from '../../../src-main/core/formats/pickle/pickle-cursor';
import {
  DictRecordReader,
  NOT_PLAIN,
  type RecordMemo,
} from '../../../src-main/core/formats/pickle/read-dict-record';

// A sample's trace events are read as records (TraceEventRecord: the fields a row's walk and
// the perf keys read), most straight off the bytes (read-dict-record.ts), the rest opcode by
// opcode. Rows and perf keys must be what the same dump gives read with dicts, whichever way
// each event was read. Records are made only for the samples after the first batch the reader
// appends early (64), so the dumps here hold more.

const dir = mkdtempSync(join(tmpdir(), 'dict-records-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Read {
  rows: string[];
  perf: Record<string, number>;
  /** events read as records, as the rows saw them */
  records: number;
}

/** Rows (as JSON) and perf keys of every sample, read as slime's open reads them. */
function readRows(source: ByteSource, records: DictRecords | undefined): Read {
  const rows: string[] = [];
  const perf = new PerfSummaryBuilder();
  const tally = { skippedEvents: 0 };
  let seen = 0;
  let list: PyValue[] | null = null;
  let done = 0;
  let recordsSeen = 0;
  const each = (sample: PyValue, index: number) => {
    if (!isDict(sample)) return sample;
    const trace = sample.trace;
    if (isDict(trace) && Array.isArray(trace.events))
      for (const e of trace.events) if (e instanceof TraceEventRecord) recordsSeen++;
    const row = sampleRow(sample, index, tally);
    rows[index] = JSON.stringify(row, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));
    perf.add(sample);
    seen++;
    return null;
  };
  readSlimeDump(source, {
    records,
    onSamples: (samples) => {
      if (samples !== list) {
        list = samples;
        done = 0;
      }
      for (; done < samples.length; done++) samples[done] = each(samples[done], done);
    },
    onSample: (samples, index, sample) => {
      if (samples !== list || index !== done) return sample;
      done++;
      return each(sample, index);
    },
  });
  expect(seen).toBeGreaterThan(0);
  return { rows, perf: perf.result(), records: recordsSeen };
}

function expectSameRows(source: () => ByteSource): number {
  const dicts = readRows(source(), undefined);
  const records = readRows(source(), TRACE_EVENT_RECORDS);
  expect(dicts.records).toBe(0);
  expect(records.rows).toEqual(dicts.rows);
  expect(records.perf).toEqual(dicts.perf);
  return records.records;
}

// a dump of Sample objects is watched from its first batch's end (its objects are not dicts
// until BUILT, so no sample is handed over early): 1000 samples in
describe.each([
  ['rollout_small.pt', 300],
  ['rollout_agentic.pt', 300],
  ['sample_objects.pt', 1100],
])("a dump of %s's samples written again (%i of them)", (name, count) => {
  it('gives the rows and perf keys it gives read with dicts', () => {
    const path = join(dir, `${name}.${count}.pt`);
    writeSlimeDump(path, Infinity, 0, count, {
      realSamples: [join(FIXTURES, 'slime', name)],
    });
    const records = expectSameRows(() => openFileSource(path));
    // the later samples had their events read as records (a dozen or more each)
    expect(records).toBeGreaterThan(count - (name === 'sample_objects.pt' ? 1000 : 64));
  });
});

/** Strings memoized and read back as CPython's pickler does (BINPUT, then BINGET). */
class Memo {
  private readonly slots = new Map<string, number>();
  private count = 0;
  constructor(private readonly w: PickleWriter) {}

  /** the slot the next put writes */
  get next(): number {
    return this.count;
  }

  put(): void {
    this.w.op(0x72).u32(this.count++); // LONG_BINPUT
  }

  str(text: string): void {
    const at = this.slots.get(text);
    if (at !== undefined) {
      this.w.get(at);
      return;
    }
    this.w.str(text);
    this.slots.set(text, this.count);
    this.put();
  }
}

type EventWriter = (w: PickleWriter, memo: Memo, sample: number, k: number) => void;

/**
 * A dump of 100 samples of two events each: a span's start and end, each written by `event`;
 * `after` writes more items of the sample after its trace, given its events' memo slots.
 */
function dumpOf(
  event: EventWriter,
  after?: (w: PickleWriter, memo: Memo, events: number[]) => void,
): Uint8Array {
  return slimeDump((w) => {
    const memo = new Memo(w);
    w.op(0x5d);
    memo.put();
    w.op(0x28);
    for (let s = 0; s < 100; s++) {
      w.op(0x7d);
      memo.put();
      w.op(0x28);
      memo.str('index');
      w.int(s);
      memo.str('trace');
      w.op(0x7d);
      memo.put();
      w.op(0x28);
      memo.str('trace_id');
      memo.str(`t${s}`);
      memo.str('events');
      w.op(0x5d);
      memo.put();
      w.op(0x28);
      const events: number[] = [];
      for (let k = 0; k < 2; k++) {
        events.push(memo.next);
        event(w, memo, s, k);
      }
      w.op(0x65); // APPENDS
      w.op(0x75); // SETITEMS (trace)
      after?.(w, memo, events);
      w.op(0x75); // SETITEMS (sample)
    }
    w.op(0x65);
  });
}

/** an event dict as slime writes it, with `extra` opcodes before its SETITEMS */
function slimeEvent(extra: EventWriter = () => {}): EventWriter {
  return (w, memo, s, k) => {
    w.op(0x7d);
    memo.put();
    w.op(0x28);
    memo.str('type');
    memo.str(k === 0 ? 'span_start' : 'span_end');
    memo.str('name');
    memo.str('generate');
    memo.str('ts');
    w.float(1000 + s + k * 0.5);
    memo.str('trace_id');
    memo.str(`t${s}`);
    memo.str('attempt');
    w.int(0);
    memo.str('span_id');
    memo.str(`span-${s}`);
    extra(w, memo, s, k);
    w.op(0x75);
  };
}

describe('trace events written otherwise', () => {
  const cases: [string, EventWriter][] = [
    ['as slime writes them', slimeEvent()],
    [
      'with attrs of one item (SETITEM) and of several',
      slimeEvent((w, memo, _s, k) => {
        memo.str('attrs');
        w.op(0x7d);
        memo.put();
        if (k === 0) {
          memo.str('max_new_tokens');
          w.int(8192);
          w.op(0x73);
        } else {
          w.op(0x28);
          memo.str('response_length');
          w.int(7);
          memo.str('finish_reason');
          memo.str('stop');
          memo.str('ok');
          w.op(0x88);
          w.op(0x75);
        }
      }),
    ],
    [
      'with empty attrs (the next key follows the dict)',
      (w, memo, s, k) => {
        w.op(0x7d);
        memo.put();
        w.op(0x28);
        memo.str('attrs');
        w.op(0x7d);
        memo.put();
        memo.str('type');
        memo.str(k === 0 ? 'span_start' : 'span_end');
        memo.str('name');
        memo.str('x');
        memo.str('ts');
        w.float(s + k);
        memo.str('span_id');
        memo.str(`s${s}`);
        w.op(0x75);
      },
    ],
    [
      'with attempt None, a parent, an unknown key and a string not memoized',
      slimeEvent((w, memo) => {
        memo.str('attempt');
        w.op(0x4e);
        memo.str('parent_span_id');
        memo.str('root');
        memo.str('unknown');
        w.str('not memoized');
      }),
    ],
    [
      "a dropped key's new string read back as a kept one (its memo slot noted, then decoded)",
      slimeEvent((w, memo, s, k) => {
        memo.str(k === 0 ? 'group_id' : 'parent_span_id');
        memo.str(`dropped-then-parent-${s}`);
      }),
    ],
    [
      'with a list in its attrs (read opcode by opcode)',
      slimeEvent((w, memo) => {
        memo.str('attrs');
        w.op(0x7d);
        memo.put();
        memo.str('ids');
        w.op(0x5d);
        memo.put();
        w.op(0x28).int(1).int(2).op(0x65);
        w.op(0x73);
      }),
    ],
    [
      'with a number for a key (read opcode by opcode)',
      slimeEvent((w) => {
        w.int(3);
        w.str('three');
      }),
    ],
    [
      'with a key "index" (read opcode by opcode: it counts samples read)',
      slimeEvent((w, memo, s) => {
        memo.str('index');
        w.int(s);
      }),
    ],
  ];
  it.each(cases)('%s: the same rows and perf keys', (_name, event) => {
    const bytes = dumpOf(event);
    // the 36 samples after the first 64, two events each
    expect(expectSameRows(() => bytesSource('events.pt', bytes))).toBe(72);
  });
});

describe('DictRecordReader', () => {
  /** a memo of plain values in a map, as readPickle's answers */
  function mapMemo() {
    const slots = new Map<number, PyValue>();
    const memo: RecordMemo = {
      get size() {
        return slots.size;
      },
      plain: (index) => {
        const slot = slots.get(index);
        return slot === undefined || (typeof slot === 'object' && slot !== null) ? NOT_PLAIN : slot;
      },
      put: (index, value) => (slots.set(index, value), true),
      putUnread: (index) => (slots.set(index, '(unread)'), true),
    };
    return { slots, memo };
  }
  function readOne(event: EventWriter) {
    const w = pickle();
    event(w, new Memo(w), 1, 0);
    // (what follows in a dump: an opcode is read straight only 9 bytes or more from the
    // window's end)
    const bytes = w.repeat(16, 0x4e).op(0x2e).bytes();
    const cursor = new PickleCursor(bytesSource('event.pkl', bytes), 0, 0);
    cursor.ensure(1);
    const { slots, memo } = mapMemo();
    const reader = new DictRecordReader(cursor, memo, (n) => {
      const text = new TextDecoder().decode(cursor.window.subarray(cursor.pos, cursor.pos + n));
      cursor.pos += n;
      return text;
    });
    const record = new TraceEventRecord();
    const ops = reader.read(record);
    return { ops, record, slots, at: cursor.pos, length: bytes.length };
  }

  it("reads slime's event straight off the bytes: fields kept, the rest walked past", () => {
    const { ops, record, slots, at, length } = readOne(
      slimeEvent((w, memo) => {
        memo.str('attrs');
        w.op(0x7d);
        memo.put();
        memo.str('max_new_tokens');
        w.int(8192);
        w.op(0x73);
      }),
    );
    expect(at).toBe(length - 17); // past its SETITEMS
    expect(ops).toBeGreaterThan(20);
    expect(record).toMatchObject({
      type: 'span_start',
      name: 'generate',
      ts: 1001,
      span_id: 'span-1',
      attempt: 0,
      hasAttempt: true,
      attrs: { max_new_tokens: 8192 },
    });
    // the dropped trace_id's string is in the memo, not decoded; the record is in its slot
    expect([...slots.values()]).toContain('(unread)');
    expect(slots.get(0)).toBe(record);
  });

  it('gives up, the cursor where it was, at a value it does not read (a list)', () => {
    const { ops, at } = readOne(
      slimeEvent((w, memo) => {
        memo.str('attrs');
        w.op(0x5d).op(0x28).int(1).int(2).op(0x65);
      }),
    );
    expect(ops).toBe(-1);
    expect(at).toBe(0);
  });
});

describe('a dump that reads an event dict back', () => {
  // a sample that holds one of its events again elsewhere (CPython's pickler writes the second
  // reference as a memo read): a record there would be a value only the row's walk knows
  const bytes = dumpOf(slimeEvent(), (w, memo, events) => {
    memo.str('metadata');
    w.op(0x7d);
    memo.put();
    memo.str('last_event');
    w.get(events[1]);
    w.op(0x73);
  });

  it('is read again with dicts: the same rows, perf keys and samples', () => {
    expect(expectSameRows(() => bytesSource('shared.pt', bytes))).toBe(0);
    const reasons: string[] = [];
    const kept = readSlimeDump(bytesSource('shared.pt', bytes), {
      records: TRACE_EVENT_RECORDS,
      onSamples: () => {},
      onSample: (_samples, _index, sample) => sample,
      onReadAgain: (why) => reasons.push(why),
    }).samples;
    const plain = readSlimeDump(bytesSource('shared.pt', bytes)).samples;
    expect(reasons).toEqual(['record-read-back']);
    const last = (kept[80] as { metadata: { last_event: PyValue } }).metadata.last_event;
    expect(last).not.toBeInstanceOf(TraceEventRecord);
    expect(isDict(last)).toBe(true);
    expect(JSON.stringify(kept)).toBe(JSON.stringify(plain));
  });
});
