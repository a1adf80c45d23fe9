import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { constants, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { bytesSource } from '../../../src-main/core/bytes/byte-source';
import { FormatError } from '../../../src-main/core/bytes/format-error';
import { gunzipIfGzip } from '../../../src-main/core/bytes/gunzip-source';
import { chromeTraceFormat } from '../../../src-main/core/formats/chrome/descriptor';
import {
  scanTraceJson,
  type ScanResult,
} from '../../../src-main/core/formats/chrome/scan-trace-json';
import { openTraceFile } from '../../../src-main/core/open/open-trace-file';
import { FIXTURES } from '../../support/fixtures';

/**
 * A trace cut off after its events began opens with the events before the cut, as Perfetto and
 * chrome://tracing load them, and says where it was cut. The fixture is a real Kineto trace
 * (run_gpu/README.md: HTA's rank 0, 4855 events, then traceName, displayTimeUnit and
 * baseTimeNanoseconds after the events), written as JSON.stringify writes it: so where each
 * event starts is found here from the parsed events alone, not by a scan like the one tested.
 */
const GZIPPED = new Uint8Array(readFileSync(resolve(FIXTURES, 'run_gpu/rank-0.trace.json.gz')));
const BYTES = new Uint8Array(gunzipSync(GZIPPED));
const TEXT = new TextDecoder().decode(BYTES);
const WHOLE = JSON.parse(TEXT) as { traceEvents: Record<string, unknown>[] };
const EVENTS = WHOLE.traceEvents;
const EVENT_TEXTS = EVENTS.map((e) => JSON.stringify(e));
const ARRAY_START = TEXT.indexOf('"traceEvents":[') + '"traceEvents":['.length;
/** the byte where event k starts: the text is ASCII, one event after another, comma between */
const startOf = (k: number) =>
  ARRAY_START + EVENT_TEXTS.slice(0, k).reduce((sum, t) => sum + t.length + 1, 0);

interface Scanned {
  events: unknown[];
  metadata: string[];
  result: ScanResult;
}

function scanPrefix(length: number, chunk?: number): Scanned {
  const events: unknown[] = [];
  const metadata: string[] = [];
  const result = scanTraceJson(
    bytesSource('rank-0.trace.json', BYTES.subarray(0, length)),
    {
      onEvent: (value) => (events.push(value), null),
      onBadEvent: (offset, index, reason) => events.push(`bad ${index} at ${offset}: ${reason}`),
      onMetadata: (key) => metadata.push(key),
    },
    chunk,
  );
  return { events, metadata, result };
}

/** the cut a scan of the first `at` bytes reports: `events` before it, the cut one's start */
const cutOf = (at: number, events: number, eventStart: number | null) => ({
  code: 'chrome-trace/truncated',
  atByte: at,
  events,
  eventStart,
  afterEvents: false,
});

/** the same events and cut whatever the chunk size (the fast path, a cut across chunks) */
function scanEveryWay(length: number): Scanned {
  const scanned = scanPrefix(length);
  for (const chunk of [997, 64 * 1024]) {
    const again = scanPrefix(length, chunk);
    expect(again.events.length, `chunk ${chunk}`).toBe(scanned.events.length);
    expect(again.result, `chunk ${chunk}`).toEqual(scanned.result);
  }
  return scanned;
}

describe('a Kineto trace cut at several points opens what came before the cut', () => {
  it('the fixture is as its README says, and the starts found here are its events', () => {
    expect(EVENTS).toHaveLength(4855);
    expect(BYTES.length).toBe(TEXT.length);
    for (const k of [0, 1, 2000, 4854]) {
      expect(TEXT.slice(startOf(k), startOf(k) + EVENT_TEXTS[k].length)).toBe(EVENT_TEXTS[k]);
    }
  });

  it('inside a string: the events before the cut event, which is named with its start', () => {
    const k = 2000;
    const at = startOf(k) + EVENT_TEXTS[k].indexOf('"name":"') + '"name":"'.length + 3;
    expect(TEXT[at - 1]).not.toBe('"');
    const { events, result } = scanEveryWay(at);
    expect(events).toEqual(EVENTS.slice(0, k));
    expect(result.cut).toEqual(cutOf(at, k, startOf(k)));
  });

  it('inside args: the same, the cut event left out whole', () => {
    const k = EVENTS.findIndex((e, i) => i > 3000 && Object.keys(e.args ?? {}).length > 2);
    const at = startOf(k) + EVENT_TEXTS[k].indexOf('"args":{') + '"args":{'.length + 5;
    const { events, result } = scanEveryWay(at);
    expect(events).toEqual(EVENTS.slice(0, k));
    expect(result.cut).toMatchObject({ events: k, eventStart: startOf(k), afterEvents: false });
  });

  it('between events (after the comma, or after the event before it): no event is cut', () => {
    const k = 4000;
    for (const at of [startOf(k), startOf(k) - 1]) {
      const { events, result } = scanEveryWay(at);
      expect(events).toEqual(EVENTS.slice(0, k));
      expect(result.cut).toEqual(cutOf(at, k, null));
    }
  });

  it('inside the top-level object after traceEvents: every event, and the keys before the cut', () => {
    const at = TEXT.indexOf(',"displayTimeUnit"') + 5;
    const { events, metadata, result } = scanEveryWay(at);
    expect(events).toEqual(EVENTS);
    expect(metadata).toEqual(['schemaVersion', 'record_shapes', 'distributedInfo', 'traceName']);
    expect(result.cut).toMatchObject({ events: 4855, eventStart: null, afterEvents: true });
    // right after the events' ] and with only the last } lost: every event too
    for (const cut of [startOf(4855), BYTES.length - 1]) {
      expect(scanEveryWay(cut).result.cut).toMatchObject({ events: 4855, afterEvents: true });
    }
  });

  it('whole, it is not cut', () => {
    expect(scanPrefix(BYTES.length).result.cut).toBeNull();
  });

  it('cut before its events began, there is nothing to open: chrome-trace/truncated', () => {
    const at = TEXT.indexOf('"distributedInfo"') + 30;
    expect(() => scanPrefix(at)).toThrow(FormatError);
    try {
      scanPrefix(at);
    } catch (error) {
      expect((error as FormatError).code).toBe('chrome-trace/truncated');
      expect((error as FormatError).message).toContain('before its events');
    }
  });
});

describe('opening a cut trace', () => {
  it('a GPU profile whose rank is cut opens; the rank says where it was cut', () => {
    const k = 2000;
    const at = startOf(k) + 40;
    const cut = openTraceFile([bytesSource('rank-0.trace.json', BYTES.subarray(0, at))]).summary;
    const whole = openTraceFile([bytesSource('rank-0.trace.json', BYTES)]).summary;
    expect(cut.format).toBe('gpu-profile');
    const note = `chrome-trace/truncated: rank 0 (rank-0.trace.json) is cut off at byte ${at}, inside event ${k} (which starts at byte ${startOf(k)}): opened with the ${k} events before the cut`;
    expect(cut.gpuProfile!.notes).toContain(note);
    expect(cut.notices).toContain(note);
    // the events after the cut are missing: fewer spans, and the baseTimeNanoseconds written
    // after the events is lost (the rank on its own clock, which the profile says)
    expect(cut.spans).toBeGreaterThan(0);
    expect(cut.spans).toBeLessThan(whole.spans);
    expect(cut.gpuProfile!.ranks[0].clock).toBe('own');
    expect(whole.gpuProfile!.notes.some((n) => n.includes('truncated'))).toBe(false);
  });

  it('a plain Chrome trace cut inside an event opens with its notice first', () => {
    const fixture = new Uint8Array(
      readFileSync(resolve(FIXTURES, 'chrome/torch_profiler_train_cpu.json')),
    );
    const all = JSON.parse(new TextDecoder().decode(fixture)) as unknown[];
    const at = 60_000;
    const opened = chromeTraceFormat.open([bytesSource('cpu.json', fixture.subarray(0, at))], {});
    // the events that end before the cut: each one's text is found in the bytes read
    const text = new TextDecoder().decode(fixture.subarray(0, at));
    const before = text.slice(0, text.lastIndexOf('}, {') + 1);
    const whole = JSON.parse(`${before}]`) as unknown[];
    expect(whole.length).toBeGreaterThan(100);
    expect(all.slice(0, whole.length)).toEqual(whole);
    expect(opened.counts!.spans).toBe(whole.length);
    expect(opened.notices[0]).toBe(
      `chrome-trace/truncated: cpu.json is cut off at byte ${at}, inside event ${whole.length} (which starts at byte ${before.length + 2}): opened with the ${whole.length} events before the cut`,
    );
  });

  it('a gzip file cut short opens what inflated before the cut, with both notices', () => {
    const half = GZIPPED.subarray(0, GZIPPED.length >> 1);
    const opened = openTraceFile([bytesSource('rank-0.trace.json.gz', half)]).summary;
    // what zlib inflates of the same bytes, flushed at the cut: ours is the same bytes
    const reference = new Uint8Array(gunzipSync(half, { finishFlush: constants.Z_SYNC_FLUSH }));
    const inflated = gunzipIfGzip(bytesSource('rank-0.trace.json.gz', half));
    expect(inflated.cutShort).toBe(half.length);
    expect(inflated.size).toBeGreaterThan(reference.length * 0.9);
    expect(
      Buffer.from(inflated.read(0, inflated.size)).equals(reference.subarray(0, inflated.size)),
    ).toBe(true);
    const plain = openTraceFile([
      bytesSource('rank-0.trace.json', BYTES.subarray(0, inflated.size)),
    ]).summary;
    expect(opened.spans).toBe(plain.spans);
    expect(opened.spans).toBeGreaterThan(0);
    expect(opened.notices).toContain(
      `gzip/truncated: rank-0.trace.json.gz is cut short: its gzip stream ends at byte ${half.length}, and the ${inflated.size} bytes inflated before the cut are read`,
    );
    const note = opened.gpuProfile!.notes.find((n) => n.startsWith('chrome-trace/truncated'));
    expect(note).toMatch(
      new RegExp(
        `^chrome-trace/truncated: rank 0 \\(rank-0\\.trace\\.json\\.gz\\) is cut off at byte ${inflated.size} of its inflated bytes \\(its gzip stream ends early, at byte ${half.length} of the file\\), inside event \\d+ `,
      ),
    );
  });

  it('a whole gzip file says nothing of a cut', () => {
    const opened = openTraceFile([bytesSource('rank-0.trace.json.gz', GZIPPED)]).summary;
    expect(opened.notices.filter((n) => n.includes('truncated'))).toEqual([]);
  });
});
