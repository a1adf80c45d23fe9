import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openFileSource } from '../../../src-main/core/bytes/file-source';
import { unpackRow } from '../../../src-main/core/rows/packed-items';
import { bytesSource } from '../../../src-main/core/bytes/byte-source';
import { FormatError } from '../../../src-main/core/bytes/format-error';
import { chromeTraceFormat } from '../../../src-main/core/formats/chrome/descriptor';
import { scanTraceJson } from '../../../src-main/core/formats/chrome/scan-trace-json';
import { sniffChromeTrace } from '../../../src-main/core/formats/chrome/sniff-chrome-trace';
import type { PointItem, Row, SpanItem } from '../../../src-main/core/model/row';
import { openTraceFile } from '../../../src-main/core/open/open-trace-file';

/**
 * A trace written here to cover what the torch fixture does not: the object form with
 * displayTimeUnit, M names and sort indexes, string pids and tids, B/E with an unmatched E and
 * an unclosed B, instants of thread, process and global scope, async b/n/e, an s/f flow
 * between two threads, counters, and three bad events. Times are microseconds.
 */
const TRACE = {
  displayTimeUnit: 'ns',
  otherData: { writer: 'test' },
  traceEvents: [
    { ph: 'M', name: 'process_name', pid: 'worker', args: { name: 'Rollout worker' } },
    { ph: 'M', name: 'thread_name', pid: 'worker', tid: 'main', args: { name: 'MainThread' } },
    { ph: 'M', name: 'process_name', pid: 7, args: { name: 'trainer' } },
    { ph: 'M', name: 'process_sort_index', pid: 7, args: { sort_index: -1 } },
    { ph: 'M', name: 'thread_name', pid: 7, tid: 1, args: { name: 'train' } },
    { ph: 'M', name: 'thread_name', pid: 7, tid: 2, args: { name: 'comm' } },
    { ph: 'B', name: 'step', pid: 7, tid: 1, ts: 100, args: { step: 1 } },
    { ph: 'B', name: 'fwd', pid: 7, tid: 1, ts: 150 },
    { ph: 'E', pid: 7, tid: 1, ts: 400, args: { loss: 0.5 } },
    { ph: 'E', pid: 7, tid: 1, ts: 900 },
    { ph: 'E', name: 'stray', pid: 7, tid: 1, ts: 950 },
    { ph: 'B', name: 'save', pid: 7, tid: 1, ts: 1000 },
    { ph: 'X', name: 'allreduce', cat: 'nccl', pid: 7, tid: 2, ts: 420.5, dur: 79.25 },
    { ph: 's', name: 'grads', cat: 'flow', id: 1, pid: 7, tid: 1, ts: 300 },
    { ph: 'f', name: 'grads', cat: 'flow', id: 1, pid: 7, tid: 2, ts: 450, bp: 'e' },
    { ph: 'i', name: 'checkpoint', pid: 7, tid: 1, ts: 500, s: 't' },
    { ph: 'I', name: 'gc', pid: 7, tid: 1, ts: 600, s: 'p' },
    { ph: 'i', name: 'epoch', pid: 7, tid: 1, ts: 50, s: 'g' },
    { ph: 'b', name: 'request', cat: 'rpc', id: '0x1', pid: 'worker', tid: 'main', ts: 200 },
    { ph: 'n', name: 'first token', cat: 'rpc', id: '0x1', pid: 'worker', tid: 'main', ts: 260 },
    { ph: 'e', name: 'request', cat: 'rpc', id: '0x1', pid: 'worker', tid: 'main', ts: 700 },
    { ph: 'b', name: 'request', cat: 'rpc', id: '0x2', pid: 'worker', tid: 'main', ts: 300 },
    { ph: 'e', name: 'request', cat: 'rpc', id: '0x2', pid: 'worker', tid: 'main', ts: 800 },
    { ph: 'X', name: 'generate', pid: 'worker', tid: 'main', ts: 210, dur: 990 },
    { ph: 'C', name: 'memory', pid: 7, ts: 100, args: { used: 10, free: 90 } },
    { ph: 'C', name: 'memory', pid: 7, ts: 200, args: { used: 20, free: 80 } },
    { ph: 'X', name: 'no ts', pid: 7, tid: 1, dur: 5 },
    42,
    { name: 'no ph', ts: 5 },
  ],
};

const text = JSON.stringify(TRACE, null, 1);
const encode = (s: string) => new TextEncoder().encode(s);
const open = (s: string, name = 'synthetic.json') => openTraceFile([bytesSource(name, encode(s))]);
const spansOf = (row: Row) => row.items.filter((i): i is SpanItem => i.type === 'span');
const pointsOf = (row: Row) => row.items.filter((i): i is PointItem => i.type !== 'span');
const span = (row: Row, name: string) => spansOf(row).find((s) => s.name === name)!;

describe('a synthetic Chrome trace with every kind of event', () => {
  const trace = open(text);
  const [trainer, worker, global] = trace.rows.map(unpackRow);

  it('opens as a Chrome trace: a row per process in sort order, then the global instants', () => {
    expect(trace.summary.format).toBe(chromeTraceFormat.id);
    expect(trace.rows.map((r) => r.source)).toEqual([
      'trainer (pid 7)',
      'Rollout worker (pid worker)',
      'global',
    ]);
    expect(trace.summary.samples).toBe(2);
  });

  it('counts spans as complete + begin/end slices, instants as events, one flow link', () => {
    // X: allreduce, generate; B: step, fwd, save
    expect(trace.summary.spans).toBe(5);
    // checkpoint (thread), gc (process), epoch (global), first token (async n)
    expect(trace.summary.events).toBe(4);
    expect(trace.summary.links).toBe(1);
  });

  it('B/E nest as a stack per thread; the stray E is an unmatched end; save stays open', () => {
    const step = span(trainer, 'step');
    const fwd = span(trainer, 'fwd');
    expect([step.start_ts, step.end_ts]).toEqual([100e-6, 900e-6]);
    expect(step.attrs.start_attrs).toEqual({ step: 1 });
    expect([fwd.start_ts, fwd.end_ts, fwd.depth]).toEqual([150e-6, 400e-6, 1]);
    expect(fwd.attrs.end_attrs).toEqual({ loss: 0.5 });
    expect(fwd.parent_span_id).toBe(step.span_id);
    const save = span(trainer, 'save');
    expect(save.state).toBe('open_span');
    expect(save.end_ts).toBeNull();
    // drawn to the trace's last timestamp: generate ends at 210 + 990 us
    expect(save.display_end_ts).toBeCloseTo(1200e-6, 12);
    expect(save.attrs.end_attrs.clipped_by).toBe('row_end');
    const stray = pointsOf(trainer).find((p) => p.name === 'stray')!;
    expect([stray.type, stray.ts]).toEqual(['orphan_end', 950e-6]);
    expect(trainer.orphan_count).toBe(1);
    expect(trainer.open_span_count).toBe(1);
  });

  it('lanes: process instants, then thread train by depth, then thread comm', () => {
    const gc = pointsOf(trainer).find((p) => p.name === 'gc')!;
    expect([gc.lane, gc.lane_label]).toEqual([0, 'process']);
    expect([span(trainer, 'step').lane, span(trainer, 'fwd').lane]).toEqual([1, 2]);
    expect(span(trainer, 'step').lane_label).toBe('train (tid 1)');
    const checkpoint = pointsOf(trainer).find((p) => p.name === 'checkpoint')!;
    expect(checkpoint.lane).toBe(1);
    const allreduce = span(trainer, 'allreduce');
    expect([allreduce.lane, allreduce.lane_label]).toEqual([3, 'comm (tid 2)']);
    expect(trainer.lane_count).toBe(4);
  });

  it('ts and dur are microseconds (floats too), whatever displayTimeUnit says', () => {
    const allreduce = span(trainer, 'allreduce');
    expect(allreduce.start_ts).toBeCloseTo(420.5e-6, 12);
    expect(allreduce.end_ts).toBeCloseTo(499.75e-6, 12);
    expect(allreduce.attrs.start_attrs).toEqual({ cat: 'nccl' });
    expect(trace.summary.notices).toContain('displayTimeUnit ns (times are read as microseconds)');
  });

  it('the s/f flow links the slice enclosing s (fwd) to the slice enclosing f (allreduce)', () => {
    expect(span(trainer, 'allreduce').links).toEqual([
      { trace_id: 'pid 7', span_id: span(trainer, 'fwd').span_id, dangling: false },
    ]);
    expect(spansOf(trainer).filter((s) => s.links).length).toBe(1);
  });

  it('async b/e are spans on lanes of their own, overlapping ids packed apart; n is an instant', () => {
    const generate = span(worker, 'generate');
    expect([generate.lane, generate.lane_label]).toEqual([0, 'MainThread (tid main)']);
    const requests = spansOf(worker).filter((s) => s.name === 'request');
    expect(requests.map((r) => [r.start_ts, r.end_ts, r.lane])).toEqual([
      [200e-6, 700e-6, 1],
      [300e-6, 800e-6, 2],
    ]);
    expect(requests[0].lane_label).toBe('request (async)');
    expect(requests[0].attrs.start_attrs).toEqual({ cat: 'rpc' });
    const token = pointsOf(worker).find((p) => p.name === 'first token')!;
    expect([token.type, token.lane]).toEqual(['event', 1]);
    expect(worker.lane_count).toBe(3);
  });

  it('global instants get a row of their own', () => {
    expect(global.items.map((i) => i.name)).toEqual(['epoch']);
  });

  it('counters, bad events, async spans, open and unmatched are said in notices', () => {
    const notices = trace.summary.notices;
    expect(notices).toContain(
      '3 events skipped: event 26 (byte ' +
        text.lastIndexOf('{', text.indexOf('"no ts"')) +
        ') (ph X) has no ts; event 27 (byte ' +
        text.indexOf('42,') +
        ') is not an object; event 28 (byte ' +
        text.lastIndexOf('{', text.indexOf('"no ph"')) +
        ') has no ph',
    );
    expect(notices).toContain(
      '2 counter samples in 2 series (7 memory.used, 7 memory.free): not drawn',
    );
    expect(notices).toContain('2 async spans on their own lanes');
    expect(notices).toContain('1 span never ended: drawn to the last timestamp');
    expect(notices).toContain('1 end without a begin (E or e events)');
  });
});

describe('scanning the events array', () => {
  const expected = JSON.parse(text).traceEvents as unknown[];

  it('finds the same events when read in chunks of every size from 1 to 9 bytes', () => {
    for (let chunk = 1; chunk <= 9; chunk++) {
      const seen: unknown[] = [];
      const meta: Record<string, unknown> = {};
      scanTraceJson(
        bytesSource('t.json', encode(text)),
        {
          onEvent: (value) => (seen.push(value), null),
          onBadEvent: () => seen.push('bad'),
          onMetadata: (key, value) => (meta[key] = value),
        },
        chunk,
      );
      expect(seen, `chunk ${chunk}`).toEqual(expected);
      expect(meta).toEqual({ displayTimeUnit: 'ns', otherData: { writer: 'test' } });
    }
  });

  it('finds the same events in a file, read chunk after chunk into one buffer', () => {
    // a file source reads each chunk into the scanner's one buffer: an event that goes on into
    // the next chunk must not be overwritten by it, nor a failed fast path stick to the buffer
    const dir = mkdtempSync(join(tmpdir(), 'scan-window-'));
    try {
      const path = join(dir, 't.json');
      writeFileSync(path, text);
      for (const chunk of [1, 2, 5, 9, 64, 200]) {
        const seen: unknown[] = [];
        const source = openFileSource(path);
        try {
          scanTraceJson(
            source,
            { onEvent: (value) => (seen.push(value), null), onBadEvent: () => seen.push('bad') },
            chunk,
          );
        } finally {
          source.close();
        }
        expect(seen, `chunk ${chunk}`).toEqual(expected);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('strings with brackets, quotes and escapes inside events do not end them early', () => {
    const tricky = [
      { ph: 'X', name: 'a]}"\\{[', ts: 1, dur: 2, pid: 1, tid: 1, args: { s: '\\"]' } },
    ];
    const seen: unknown[] = [];
    scanTraceJson(
      bytesSource('t.json', encode(JSON.stringify(tricky))),
      {
        onEvent: (value) => (seen.push(value), null),
        onBadEvent: () => seen.push('bad'),
      },
      3,
    );
    expect(seen).toEqual(tricky);
  });
});

describe('scanning a chunk of events with one JSON.parse (the fast path)', () => {
  /** every event and skip the scanner reports, read in chunks of `chunk` bytes */
  const scanAll = (bytes: Uint8Array, chunk: number, skipWhen?: (v: unknown) => boolean) => {
    const said: string[] = [];
    scanTraceJson(
      bytesSource('t.json', bytes),
      {
        onEvent: (value, index) => {
          if (skipWhen?.(value)) return 'skipped here';
          said.push(`${index} ${JSON.stringify(value)}`);
          return null;
        },
        onBadEvent: (offset, index, reason) => said.push(`${index} bad at ${offset}: ${reason}`),
      },
      chunk,
    );
    return said;
  };
  // events with strings that look like the boundary the fast path guesses (`},{`), inner
  // objects and arrays of objects, and a bad event, on lines as Kineto writes them
  const events = Array.from({ length: 60 }, (_, i) =>
    JSON.stringify({
      ph: 'X',
      name: i % 7 === 0 ? `op},{"ph":"X"${i}` : `aten::op_${i}`,
      ts: i * 10,
      dur: 5,
      pid: 1,
      tid: 1,
      args: { dims: [{ a: i }, { b: [i] }], s: i % 5 === 0 ? '} , {' : 'x' },
    }),
  );
  events[31] = '{"ph": nope}';
  const file = encode(`{"schemaVersion":1,"traceEvents":[\n${events.join(',\n')}\n],"x":2}`);

  it('reports the same events, bad ones at the same byte, for every chunk size', () => {
    const byteByByte = scanAll(file, 1);
    expect(byteByByte.filter((s) => s.includes('bad'))).toHaveLength(1);
    for (const chunk of [17, 64, 100, 333, 1000, 4096, file.length]) {
      expect(scanAll(file, chunk), `chunk ${chunk}`).toEqual(byteByByte);
    }
  });

  it('events the importer skips are reported at their own bytes, found inside a fast run', () => {
    const skipSome = (v: unknown) => ((v as { ts?: number }).ts ?? 1) % 130 === 0;
    const byteByByte = scanAll(file, 1, skipSome);
    const text = new TextDecoder().decode(file);
    const at = text.indexOf('"ts":390') - '{"ph":"X","name":"aten::op_39",'.length;
    expect(text.slice(at, at + 12)).toBe('{"ph":"X","n');
    expect(byteByByte).toContain(`39 bad at ${at}: skipped here`);
    expect(byteByByte.filter((s) => s.includes('skipped here'))).toHaveLength(5);
    for (const chunk of [300, 500, 700, 1000, file.length]) {
      expect(scanAll(file, chunk, skipSome), `chunk ${chunk}`).toEqual(byteByByte);
    }
  });

  it('a chunk of many runs (each parsed apart) reports what small chunks do, bad events too', () => {
    // 3.3 MB in one 4 MiB chunk: the fast path parses it in runs of 512 KiB, the first ones
    // whole (skipped events among them: 5 of each 60), then a run with a bad event and the
    // rest walked byte by byte (the 60 events' bad one from there on)
    const good = events[30];
    const many = Array.from({ length: 30_000 }, (_, i) =>
      i < 20_000 && i % events.length === 31 ? good : events[i % events.length],
    );
    many[20_001] = '{"ph": nope}';
    const big = encode(`{"traceEvents":[\n${many.join(',\n')}\n]}`);
    expect(big.length).toBeGreaterThan(6 * 512 * 1024);
    const skipSome = (v: unknown) => ((v as { ts?: number }).ts ?? 1) % 130 === 0;
    const small = scanAll(big, 4096, skipSome);
    expect(small.filter((s) => s.includes(': not JSON'))).toHaveLength(167 + 1);
    expect(small.filter((s) => s.includes(': skipped here'))).toHaveLength(2500);
    expect(scanAll(big, 4 * 1024 * 1024, skipSome)).toEqual(small);
  });
});

describe('broken Chrome traces', () => {
  const event = '{"ph":"X","name":"a","ts":1,"dur":2,"pid":1,"tid":1}';
  const openByFormat = (s: string) =>
    chromeTraceFormat.open([bytesSource('bad.json', encode(s))], {});
  const codeOf = (run: () => unknown) => {
    try {
      run();
    } catch (error) {
      expect(error).toBeInstanceOf(FormatError);
      return { code: (error as FormatError).code, message: (error as FormatError).message };
    }
    throw new Error('expected a FormatError');
  };

  it('a file cut off inside an event opens the events before it, naming the file and the event', () => {
    const cut = `[${event},${event.slice(0, 20)}`;
    const opened = open(cut, 'cut.json').summary;
    expect(opened.spans).toBe(1);
    expect(opened.notices[0]).toBe(
      `chrome-trace/truncated: cut.json is cut off at byte ${cut.length}, inside event 1 (which starts at byte ${event.length + 2}): opened with the 1 event before the cut`,
    );
  });

  it('a brace inserted in an event (its array then ends at a stray }) is bad-json, at once', () => {
    // found by the readers fuzz run: the stray } started a value of no bytes, read again
    // forever (V8 died growing the list of bad events)
    const broken = `{"traceEvents":[${event},{"ph":"E"{,"ts":60},${event}],"displayTimeUnit":"ns"}`;
    const started = performance.now();
    expect(codeOf(() => open(broken, 'brace.json'))).toEqual({
      code: 'chrome-trace/bad-json',
      message: `unexpected } where an event should start (at byte ${broken.length - 1})`,
    });
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('an object cut off after its events opens them all and says it is cut', () => {
    const cut = `{"traceEvents":[${event}]`;
    const opened = open(cut).summary;
    expect(opened.spans).toBe(1);
    expect(opened.notices[0]).toMatch(
      /^chrome-trace\/truncated: synthetic\.json is cut off at byte 69, in the top-level object after its events: opened with its 1 event; what it says after the cut is lost$/,
    );
  });

  it('traceEvents that is not an array, or no traceEvents at all, is a wrong shape', () => {
    expect(codeOf(() => openByFormat('{"traceEvents": {"ph": "X"}}'))).toEqual({
      code: 'chrome-trace/trace-events-not-array',
      message: 'traceEvents is not an array (at byte 16)',
    });
    expect(codeOf(() => openByFormat('{"displayTimeUnit": "ms"}')).code).toBe(
      'chrome-trace/no-trace-events',
    );
    expect(codeOf(() => openByFormat('"ph"')).code).toBe('chrome-trace/not-json');
    expect(codeOf(() => openByFormat('   ')).code).toBe('chrome-trace/empty');
  });

  it('a bare array without its closing ] opens, as the format allows, and says so', () => {
    const trace = open(`[${event},\n${event}\n`);
    expect(trace.summary.spans).toBe(2);
    expect(trace.summary.notices).toContain(
      'the event array is not closed (a writer that stopped)',
    );
  });

  it('an event that is not JSON is skipped and counted, the rest opens', () => {
    const trace = open(`[${event}, {"ph": nope}, ${event}]`);
    expect(trace.summary.spans).toBe(2);
    expect(trace.summary.notices[0]).toMatch(/^1 event skipped: event 1 \(byte 55\) not JSON/);
  });
});

describe('sniffing', () => {
  const sniff = (s: string) => sniffChromeTrace(encode(s));

  it('takes a bare array whose first object has ph, and an object with traceEvents', () => {
    expect(sniff('[{"name":"a","ph":"X","ts":1}]')).toBe(true);
    expect(sniff('\ufeff  \n[\n {"args": {"x": [1]}, "ph": "B"')).toBe(true);
    expect(sniff('{"schemaVersion": 1, "deviceProperties": [], "traceEvents": [')).toBe(true);
  });

  it('refuses other JSON, OTLP lines, empty arrays and binary, without throwing', () => {
    expect(sniff('[]')).toBe(false);
    expect(sniff('[1, 2]')).toBe(false);
    expect(sniff('[{"name":"a","args":{"ph":"X"}}]')).toBe(false);
    expect(sniff('{"resourceSpans":[]}')).toBe(false);
    expect(sniff('')).toBe(false);
    expect(sniffChromeTrace(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0xff, 0xfe]))).toBe(false);
  });
});

describe('thread labels', () => {
  it('a thread Kineto names "thread 23695 (python3.8)" is not told its tid twice', () => {
    const trace = open(
      JSON.stringify([
        {
          ph: 'M',
          name: 'thread_name',
          pid: 1,
          tid: 23695,
          args: { name: 'thread 23695 (python3.8)' },
        },
        {
          ph: 'M',
          name: 'thread_name',
          pid: 1,
          tid: 8,
          args: { name: 'thread 23695 (python3.8)' },
        },
        { ph: 'X', name: 'aten::mm', pid: 1, tid: 23695, ts: 1, dur: 2 },
        { ph: 'X', name: 'aten::add', pid: 1, tid: 8, ts: 1, dur: 2 },
      ]),
    );
    const row = unpackRow(trace.rows[0]);
    expect(span(row, 'aten::mm').lane_label).toBe('thread 23695 (python3.8)');
    // a name that tells another tid keeps the real one beside it
    expect(span(row, 'aten::add').lane_label).toBe('thread 23695 (python3.8) (tid 8)');
  });
});
