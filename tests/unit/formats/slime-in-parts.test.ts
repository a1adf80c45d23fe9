import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFileSource } from '../../../src-main/core/bytes/file-source';
import {
  PartBoundary,
  type PartReader,
  type PendingPart,
} from '../../../src-main/core/bytes/part-reader';
import type { FormatOpened } from '../../../src-main/core/formats/format-descriptor';
import { slimeFormat } from '../../../src-main/core/formats/slime/descriptor';
import {
  MAIN_PART,
  PartStarter,
  type SlimePart,
} from '../../../src-main/core/formats/slime/open/read-in-parts';
import type { ByteSource } from '../../../src-main/core/bytes/byte-source';
import { unpackItems } from '../../../src-main/core/rows/packed-items';
import type { WithBytes } from '../../../src-main/core/model/sample-facts';
import { reopeningFile } from '../../support/reopening-file';
// the bench's writer: dumps shaped like slime's (CPython's memo use, batches of 1000)
import { writeSlimeDump, type SlimeDumpShape } from '../../bench/slime-dump-writer.mjs';

// A dump read by two threads (open/read-in-parts.ts) must open exactly as one thread reads it:
// every row and item, each sample's facts, the perf summary, the notices, and every sample read
// again from the file. The helper's work is done here, before the file's thread starts, and
// what it sends is structured-cloned with its buffers transferred, as postMessage does.
let dir: string;
let path: string;
/** the dump read by one thread */
let whole: FormatOpened;
const SAMPLES = 20_000;
/** how the dump's samples after the first start: their first key read back from the memo */
let SAMPLE_KEY: Buffer;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'in-parts-'));
  path = join(dir, 'rollout_parts.pt');
  writeSlimeDump(path, Infinity, 20, SAMPLES, { resumedGroups: 3, rolloutId: 7 });
  whole = slimeFormat.open([openFileSource(path)], {});
  // the first sample memoizes its first key, "group_index", right after writing it
  const head = readFileSync(path).subarray(0, 4096);
  const key = head.indexOf('group_index') + 'group_index'.length;
  expect(head[key]).toBe(0x71);
  SAMPLE_KEY = Buffer.from([0x68, head[key + 1]]);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface HelperLog {
  /** the least start of a helper started ahead of the decision, and where it was told */
  notBefore?: number;
  told?: number;
  first?: number;
  walkedPast?: number;
  /** of those walked past, how many it passed by finding where the next starts */
  scanned?: number;
  pieces: number;
  failed?: string;
  cancelled: boolean;
  waited: boolean;
}

/**
 * The helper thread's work done in-process, as soon as it is told where its part starts; `lose`:
 * its part never arrives; `ahead`: it can be started before it is told (else only after).
 */
function inProcessReader(log: HelperLog, lose = false, ahead = true): PartReader {
  return {
    // a core to spare: a dump is read in parts from 2 (read-in-parts.ts); this small dump
    // however soon it is read
    threads: 2,
    splitMinSeconds: 0,
    start(helperPath, start): PendingPart | null {
      const boundary = PartBoundary.local();
      const pieces: unknown[] = [];
      let part: SlimePart | null = null;
      // `from`: where readPart is told the part starts, or the least it can (started ahead);
      // `at`: what partStart gives (where the file's thread said, once it decided)
      const read = (from: number, at: number) => {
        const source = openFileSource(helperPath);
        try {
          const read = slimeFormat.readPart!(source, from, {
            onBytes: () => {},
            onPosting: () => {},
            boundary,
            partStart: () => ((log.told = at), at),
            send: (piece, transfer) => pieces.push(structuredClone(piece, { transfer })),
          });
          part = structuredClone(read.part, { transfer: read.transfer }) as SlimePart;
          log.first = part.first;
          log.walkedPast = part.walkedPast;
          log.scanned = part.scanned;
          log.pieces = pieces.length;
        } catch (error) {
          log.failed = String(error);
        } finally {
          source.close();
        }
      };
      // started ahead of the decision: its work is done when it is told where its part starts
      const later = typeof start !== 'number';
      if (later && !ahead) return null;
      if (later) log.notBefore = start.notBefore;
      else read(start, start);
      return {
        ...(later ? { startAt: (at: number) => read(start.notBefore, at) } : {}),
        wait: () => {
          log.waited = true;
          return lose ? null : part;
        },
        // what was not taken yet, as the worker-range-reader gives them
        pieces: () => pieces.splice(0),
        bytesRead: () => 0,
        cancel: () => void (log.cancelled = true),
        boundary,
      };
    },
  };
}

/** `source`, counting the bytes read from it */
function countingReads(source: ByteSource): ByteSource & { bytesRead(): number } {
  let read = 0;
  return {
    ...source,
    read(offset, length, into) {
      const bytes = source.read(offset, length, into);
      read += bytes.length;
      return bytes;
    },
    bytesRead: () => read,
  };
}

/** a row as text: a deep comparison of 20k rows' items one by one takes seconds */
const rowText = ({ packed, ...fields }: FormatOpened['rows'][number]) =>
  JSON.stringify([fields, unpackItems(packed)]);

/** `parts` opens as `whole` (the dump at `file` read by one thread) */
function expectSameOpen(parts: FormatOpened, reference = whole, file = path) {
  const whole = reference;
  // the dump opened again for each sample read again, as the app does
  const withFile: WithBytes = (use) => reopeningFile(file)(use);
  expect(parts.rows.length).toBe(whole.rows.length);
  parts.rows.forEach((row, k) => {
    const text = rowText(row);
    if (text !== rowText(whole.rows[k])) expect(text, `row ${k}`).toBe(rowText(whole.rows[k]));
  });
  expect(parts.samples.count).toBe(whole.samples.count);
  expect(parts.samples.facts).toEqual(whole.samples.facts);
  expect(parts.perf).toEqual(whole.perf);
  expect(parts.notices).toEqual(whole.notices);
  expect(parts.sampleCount).toBe(whole.sampleCount);
  expect(parts.untracedSamples).toBe(whole.untracedSamples);
  expect(parts.rolloutId).toBe(whole.rolloutId);
  for (const index of [0, 999, 1000, 5000, 8000, 12_345, 15_000, 17_777, SAMPLES - 1]) {
    const again = parts.samples.read(index, withFile);
    expect(again, `sample ${index}`).toEqual(whole.samples.read(index, withFile));
    expect(again).toMatchObject({ index });
  }
}

describe('a large dump read by two threads (slime readPart)', () => {
  it('opens exactly as one thread reads it, the helper building the samples from the one it claimed', () => {
    const log: HelperLog = { pieces: 0, cancelled: false, waited: false };
    const parts = slimeFormat.open([openFileSource(path)], {
      partReader: inProcessReader(log),
      splitMinBytes: 0,
    });
    expect(log.failed).toBeUndefined();
    // started ahead of the decision (its part at half of the file or later), then told where
    // (of the samples' bytes: the data pickle, before the archive's version and directory)
    expect(log.notBefore).toBeLessThanOrEqual(Math.floor(statSync(path).size * MAIN_PART));
    expect(log.notBefore).toBeGreaterThan(Math.floor(statSync(path).size * MAIN_PART) - 1024);
    expect(log.told).toBeGreaterThanOrEqual(log.notBefore!);
    // the first sample past half of what was left when the build share was measured (when that
    // was depends on the time each step took, so within bounds)
    expect(log.first).toBeGreaterThan(SAMPLES * (MAIN_PART - 0.05));
    expect(log.first).toBeLessThan(SAMPLES * 0.75);
    // it walked past every sample before it but the first batch's first 64 (read before the
    // samples list is known: PickleOptions.firstBatchEarly): building none of them
    expect(log.walkedPast).toBe(log.first! - 64);
    // almost all of them passed by finding where the next one starts (ItemStartScan): the
    // first one is walked to learn how a sample starts, and one ending past the reader's
    // window is walked as well
    expect(log.scanned).toBeGreaterThan(log.walkedPast! * 0.95);
    // its rows arrived in pieces ahead of the part (4096 rows each: its part is longer) as well
    // as with it
    expect(log.pieces).toBeGreaterThan(0);
    expect(log.waited).toBe(true);
    expect(log.cancelled).toBe(true);
    expectSameOpen(parts);
    // the share of the bytes it read: from its first sample's start (samples are alike in size)
    expect(whole.helperShare).toBeUndefined();
    expect(parts.helperShare).toBeGreaterThan((1 - log.first! / SAMPLES) * 0.95);
    expect(parts.helperShare).toBeLessThan((1 - log.first! / SAMPLES) * 1.05);
    // the rows keep sample order across the two threads' rows
    expect(parts.rows.map((row) => row.row_id)).toEqual(whole.rows.map((row) => row.row_id));
  });

  it('reads on from where it stopped when the helper’s part never arrives', () => {
    const log: HelperLog = { pieces: 0, cancelled: false, waited: false };
    const file = countingReads(openFileSource(path));
    const parts = slimeFormat.open([file], {
      // (a reader that starts a helper only once told where: started at the decision)
      partReader: inProcessReader(log, true, false),
      splitMinBytes: 0,
    });
    expect(log.notBefore).toBeUndefined();
    expect(log.first).toBeGreaterThan(SAMPLES * (MAIN_PART - 0.05));
    expect(log.waited).toBe(true);
    expect(parts.helperShare).toBeUndefined();
    expectSameOpen(parts);
    // every byte once: it used to read the whole dump again from its start (twice the time)
    expect(file.bytesRead()).toBeLessThan(file.size * 1.05);
  });

  it('a claim that lost the race (both threads saw each other) stops this thread a little later; it reads on alone', () => {
    const log: HelperLog = { pieces: 0, cancelled: false, waited: false };
    const reader = inProcessReader(log);
    const file = countingReads(openFileSource(path));
    const parts = slimeFormat.open([file], {
      partReader: {
        ...reader,
        start(helperPath, from) {
          const pending = reader.start(helperPath, from)!;
          // the file's thread got to sample `first` just as the helper claimed it: the helper
          // gives up, but its claim stays in view and stops the file's thread at the next one
          const race = () => {
            pending.boundary!.reached(log.first!);
            expect(pending.boundary!.claim(log.first!)).toBe(false);
          };
          if (typeof from === 'number') race();
          const startAt = (at: number) => {
            pending.startAt!(at);
            race();
          };
          return { ...pending, startAt, wait: () => ((log.waited = true), null) };
        },
      },
      splitMinBytes: 0,
    });
    expect(log.waited).toBe(true);
    expect(log.first).toBeGreaterThan(SAMPLES * (MAIN_PART - 0.05));
    expectSameOpen(parts);
    expect(file.bytesRead()).toBeLessThan(file.size * 1.05);
  });

  /**
   * The dict dump's samples written in another `shape` (file `name`), opened by one thread and
   * in parts (the file's bytes read counted)
   */
  function shapedInParts(name: string, shape: SlimeDumpShape) {
    const shapedPath = join(dir, name);
    writeSlimeDump(shapedPath, Infinity, 20, SAMPLES, { resumedGroups: 3, rolloutId: 7, ...shape });
    return { shapedPath, ...bothWays(shapedPath) };
  }

  /** the dump at `dumpPath` opened by one thread and in parts (the file's bytes read counted) */
  function bothWays(dumpPath: string) {
    const oneThread = slimeFormat.open([openFileSource(dumpPath)], {});
    const log: HelperLog = { pieces: 0, cancelled: false, waited: false };
    const file = countingReads(openFileSource(dumpPath));
    const parts = slimeFormat.open([file], {
      partReader: inProcessReader(log),
      splitMinBytes: 0,
    });
    return { oneThread, log, file, parts };
  }

  /**
   * The dict dump written again with bytes changed in place, in a sample the helper passes
   * before its part (a quarter of the way in): `patch(bytes, sampleStart)` changes them
   */
  function patchedDump(name: string, patch: (bytes: Buffer, at: number) => void): string {
    const patched = join(dir, name);
    const bytes = readFileSync(path);
    // a sample's start after the previous one's SETITEMS: EMPTY_DICT, LONG_BINPUT, MARK and
    // its first key
    const key = Buffer.concat([Buffer.from([0x28]), SAMPLE_KEY]);
    let at = bytes.indexOf(key, bytes.length / 4);
    while (at > 0 && !(bytes[at - 5] === 0x72 && bytes[at - 6] === 0x7d && bytes[at - 7] === 0x75))
      at = bytes.indexOf(key, at + 1);
    expect(at).toBeGreaterThan(0);
    patch(bytes, at - 6);
    writeFileSync(patched, bytes);
    return patched;
  }

  /**
   * A trace id in that sample made the bytes a sample starts with (valid UTF-8 text), its memo
   * write naming `slot(sampleSlot)`, the slot of the sample it is in given
   */
  function fakeStartDump(name: string, slot: (sampleSlot: number) => number): string {
    return patchedDump(name, (bytes, at) => {
      const id = bytes.indexOf(Buffer.from([0x58, 32, 0, 0, 0]), at);
      const put = Buffer.alloc(4);
      put.writeUInt32LE(slot(bytes.readUInt32LE(at + 2)));
      const fake = Buffer.concat([Buffer.from('u}r'), put, Buffer.from('('), SAMPLE_KEY]);
      fake.copy(bytes, id + 5 + 4);
    });
  }

  it('a sample whose text holds how a sample starts, but for an earlier memo slot: the scan is not fooled', () => {
    const patched = fakeStartDump('rollout_fake_start.pt', () => 16);
    const { oneThread, log, parts } = bothWays(patched);
    expect(log.failed).toBeUndefined();
    expect(log.scanned).toBeGreaterThan(log.walkedPast! * 0.95);
    expect(parts.helperShare).toBeGreaterThan(0.3);
    expectSameOpen(parts, oneThread, patched);
  });

  it('a sample whose text holds how the next sample starts: the helper counts one too many, and the file’s thread reads on alone', () => {
    const patched = fakeStartDump('rollout_fake_next.pt', (sampleSlot) => sampleSlot + 1);
    const { oneThread, log, parts } = bothWays(patched);
    expect(log.failed).toBeUndefined();
    expect(log.scanned).toBeGreaterThan(0);
    // its first sample is not where this thread's sample of that index starts: not taken
    expect(parts.helperShare).toBeUndefined();
    expectSameOpen(parts, oneThread, patched);
  });

  it('a dump that writes a memo slot again (out of order): the file’s thread does not take the part of a helper that scanned', () => {
    // the memo write of that sample's response (a text no later sample reads back) names slot
    // 1 instead, the header's "rollout_id", which no sample reads either
    const patched = patchedDump('rollout_memo_again.pt', (bytes, at) => {
      const text = Buffer.from('The answer is 42.');
      const response = bytes.indexOf(text, at) + text.length;
      expect(bytes[response]).toBe(0x72);
      bytes.writeUInt32LE(1, response + 1);
    });
    const { oneThread, log, parts } = bothWays(patched);
    expect(log.failed).toBeUndefined();
    expect(log.scanned).toBeGreaterThan(0);
    expect(parts.helperShare).toBeUndefined();
    expectSameOpen(parts, oneThread, patched);
  });

  it('a dump of Sample objects (NEWOBJ, then BUILD from their dict) too: the helper walks past the objects before its part', () => {
    const { shapedPath, oneThread, log, parts } = shapedInParts('rollout_objects.pt', {
      sampleObjects: true,
    });
    // the same samples as the dict dump: the same rows
    expect(oneThread.rows.map(rowText)).toEqual(whole.rows.map(rowText));
    expect(log.failed).toBeUndefined();
    expect(log.first).toBeGreaterThan(SAMPLES * (MAIN_PART - 0.05));
    // (an object item is built by BUILD, not begun by a dict: its first batch is appended whole)
    expect(log.walkedPast).toBe(log.first! - 1000);
    expect(parts.helperShare).toBeGreaterThan(0.2);
    expectSameOpen(parts, oneThread, shapedPath);
  });

  it('a dump of samples holding tensors too: its part measured against its data pickle, the storages after it never read', () => {
    const { shapedPath, oneThread, log, file, parts } = shapedInParts('rollout_tensors.pt', {
      tensors: true,
    });
    expect(log.failed).toBeUndefined();
    // half of what was left of the samples' bytes, not of the file's
    expect(log.first).toBeGreaterThan(SAMPLES * (MAIN_PART - 0.05));
    expect(log.first).toBeLessThan(SAMPLES * (MAIN_PART + 0.1));
    expect(parts.helperShare).toBeGreaterThan(1 - MAIN_PART - 0.1);
    expect(parts.helperShare).toBeLessThan(1 - MAIN_PART + 0.05);
    expectSameOpen(parts, oneThread, shapedPath);
    // the storages (over a fifth of the file) were located, never read
    expect(file.bytesRead()).toBeLessThan(file.size * 0.8);
  });

  it('a small dump, or a machine with no cores to spare, reads it by one thread', () => {
    const log: HelperLog = { pieces: 0, cancelled: false, waited: false };
    slimeFormat.open([openFileSource(path)], { partReader: inProcessReader(log) });
    const oneCore = { ...inProcessReader(log), threads: 1 };
    slimeFormat.open([openFileSource(path)], { partReader: oneCore, splitMinBytes: 0 });
    expect(log).toEqual({ pieces: 0, cancelled: false, waited: false });
  });
});

describe('PartStarter: whether and where a helper reads the rest', () => {
  const MB = 1024 * 1024;
  const source: ByteSource = {
    name: 'rollout.pt',
    path: '/runs/rollout.pt',
    size: 600 * MB,
    read: () => new Uint8Array(0),
  };
  /**
   * the parts started (where from), by a reader of a 2-core machine; `msPerMb`: how fast this
   * thread reads (the clock the starter measures with moves by the bytes read)
   */
  function starter(threads = 2, msPerMb = 10) {
    /** where parts start: given at start, or told a helper started ahead */
    const started: number[] = [];
    /** helpers started ahead of the decision (the least their part starts at), and cancelled */
    const ahead: number[] = [];
    let cancelled = 0;
    const reader: PartReader = {
      threads,
      start: (_path, from) => {
        if (typeof from === 'number') started.push(from);
        else ahead.push(from.notBefore);
        return {
          wait: () => null,
          bytesRead: () => 0,
          cancel: () => void cancelled++,
          startAt: (at) => void started.push(at),
          boundary: PartBoundary.local(),
        };
      },
    };
    let at = 0;
    const starter = new PartStarter(source, reader, {}, () => at);
    return {
      started,
      ahead,
      cancelled: () => cancelled,
      starter: {
        progress: (bytesRead: number, rows: ReturnType<typeof busy>, samplesEnd?: number) => {
          at = (bytesRead / MB) * msPerMb;
          return starter.progress(bytesRead, rows, samplesEnd);
        },
        stop: () => starter.stop(),
      },
    };
  }
  // building takes all the time measured (buildMs far above the time passed)
  const busy = (built: number, notAlone = 0) => ({ built, buildMs: built * 1e9, notAlone });

  it('starts the helper at half of what is left, once 2% of the file was measured', () => {
    const { started, ahead, cancelled, starter: s } = starter();
    expect(s.progress(0.02 * MB, busy(7))).toBeNull();
    expect(ahead).toEqual([]);
    // 8 samples of 2.6 KB: its thread is started ahead, to walk up to half of the file meanwhile
    expect(s.progress(0.02 * MB, busy(8))).toBeNull();
    expect(ahead).toEqual([Math.floor(600 * MB * MAIN_PART)]);
    expect(s.progress(1 * MB, busy(199))).toBeNull(); // compiling: not measured
    expect(s.progress(2 * MB, busy(200))).toBeNull(); // the measured stretch starts
    expect(s.progress(12 * MB, busy(900))).toBeNull(); // 10 MB: under 2% of 600 MB
    // the decision: the helper started ahead is told where, and handed out
    expect(s.progress(14 * MB, busy(1000))).not.toBeNull();
    expect(started).toEqual([Math.floor(14 * MB + (600 - 14) * MB * MAIN_PART)]);
    expect(s.progress(20 * MB, busy(2000))).toBeNull(); // decided once
    s.stop(); // handed out: the reading cancels it, not the starter
    expect([ahead.length, cancelled()]).toEqual([1, 0]);
  });

  it('measures against where the samples end (a data pickle of 200 MB before 400 MB of storages)', () => {
    // 20 ms a MB: this thread alone would take 3.9 s for the rest of the samples
    const { started, ahead, starter: s } = starter(2, 20);
    const end = 200 * MB;
    expect(s.progress(0.02 * MB, busy(8), end)).toBeNull();
    expect(ahead).toEqual([Math.floor(end * MAIN_PART)]);
    expect(s.progress(2 * MB, busy(200), end)).toBeNull();
    // 2% of the samples' 200 MB, not of the file's 600 MB, is measured
    expect(s.progress(6.1 * MB, busy(600), end)).not.toBeNull();
    expect(started).toEqual([Math.floor(6.1 * MB + (end - 6.1 * MB) * MAIN_PART)]);
  });

  it('a helper started ahead is cancelled when two threads do not pay, or no decision came', () => {
    // building a tenth of the time: not read in parts
    const idle = starter();
    idle.starter.progress(0.02 * MB, busy(8));
    idle.starter.progress(2 * MB, { built: 200, buildMs: 0, notAlone: 0 });
    expect(idle.starter.progress(14 * MB, { built: 1000, buildMs: 12, notAlone: 0 })).toBeNull();
    expect([idle.ahead.length, idle.started.length, idle.cancelled()]).toEqual([1, 0, 1]);
    // samples that read back an earlier one's values, seen after it started
    const sharing = starter();
    sharing.starter.progress(0.02 * MB, busy(8));
    sharing.starter.progress(2 * MB, busy(200));
    expect(sharing.starter.progress(14 * MB, busy(1000, 3))).toBeNull();
    expect([sharing.ahead.length, sharing.cancelled()]).toEqual([1, 1]);
    // the dump ended (or failed) before the decision
    const short = starter();
    short.starter.progress(0.02 * MB, busy(8));
    short.starter.progress(1 * MB, busy(150));
    short.starter.stop();
    expect([short.ahead.length, short.started.length, short.cancelled()]).toEqual([1, 0, 1]);
  });

  it('none ahead when the first samples are large (long token lists) or share values', () => {
    // 8 samples in 2 MB: 256 KB each, past what two threads read faster (32 KB)
    const large = starter();
    large.starter.progress(2 * MB, busy(8));
    expect(large.ahead).toEqual([]);
    const sharing = starter();
    sharing.starter.progress(0.02 * MB, busy(8, 1));
    expect(sharing.ahead).toEqual([]);
    // and the decision still starts a helper where it pays (these samples are small after all)
    large.starter.progress(3 * MB, busy(200));
    expect(large.starter.progress(15 * MB, busy(1000))).not.toBeNull();
    expect(large.started).toEqual([Math.floor(15 * MB + (600 - 15) * MB * MAIN_PART)]);
  });

  it('when building is a fifth of the time or more (the bench’s dump: 0.26-0.37), not below (long token lists)', () => {
    const withShare = (share: number) => {
      const run = starter(2, 10);
      // the clock moves 10 ms a MB; building took `share` of it
      const rows = (bytes: number, built: number) => ({
        built,
        buildMs: bytes * 10 * share,
        notAlone: 0,
      });
      run.starter.progress(2 * MB, rows(2, 200));
      return run.starter.progress(14 * MB, rows(14, 1000));
    };
    expect(withShare(0.26)).not.toBeNull();
    expect(withShare(0.21)).not.toBeNull();
    expect(withShare(0.19)).toBeNull();
    expect(withShare(0.05)).toBeNull();
  });

  it('not when this thread alone would read the rest in under 2 s', () => {
    // 586 MB left at 1 GB/s: 0.59 s
    const fast = starter(2, 1);
    fast.starter.progress(2 * MB, busy(200));
    expect(fast.starter.progress(14 * MB, busy(1000))).toBeNull();
    // at 300 MB/s: 1.95 s
    const almost = starter(2, 3.33);
    almost.starter.progress(2 * MB, busy(200));
    expect(almost.starter.progress(14 * MB, busy(1000))).toBeNull();
    // at 250 MB/s: 2.34 s
    const slower = starter(2, 4);
    slower.starter.progress(2 * MB, busy(200));
    expect(slower.starter.progress(14 * MB, busy(1000))).not.toBeNull();
    expect([...fast.started, ...almost.started, slower.started.length]).toEqual([1]);
  });

  it('with no least time (tests, comparisons) whether or not it pays, but never with shared samples', () => {
    // building takes a tenth of the time, and the rest is read in a second
    const idle = (built: number, notAlone = 0) => ({ built, buildMs: built * 0.01, notAlone });
    const make = (minSeconds: number) => {
      const started: number[] = [];
      // (a reader that cannot be told later: its part is started at the decision)
      const reader: PartReader = {
        threads: 2,
        start: (_path, from) =>
          typeof from === 'number'
            ? (started.push(from),
              {
                wait: () => null,
                bytesRead: () => 0,
                cancel: () => {},
                boundary: PartBoundary.local(),
              })
            : null,
      };
      let at = 0;
      const s = new PartStarter(source, reader, { seconds: minSeconds }, () => at);
      const progress = (bytesRead: number, rows: ReturnType<typeof idle>) => {
        at = bytesRead / MB;
        return s.progress(bytesRead, rows);
      };
      return { started, progress };
    };
    const measured = make(2);
    measured.progress(2 * MB, idle(200));
    expect(measured.progress(14 * MB, idle(1000))).toBeNull();
    const forced = make(0);
    forced.progress(2 * MB, idle(200));
    expect(forced.progress(14 * MB, idle(1000))).not.toBeNull();
    const sharing = make(0);
    sharing.progress(2 * MB, idle(200));
    expect(sharing.progress(14 * MB, idle(1000, 1))).toBeNull();
    expect(measured.started.length + forced.started.length + sharing.started.length).toBe(1);
  });

  it('never on one core, nor when samples share values with earlier ones', () => {
    const oneCore = starter(1);
    oneCore.starter.progress(2 * MB, busy(200));
    expect(oneCore.starter.progress(14 * MB, busy(1000))).toBeNull();
    // a helper walking past samples could not read one that reads back an earlier one's list
    const sharing = starter();
    sharing.starter.progress(2 * MB, busy(200));
    expect(sharing.starter.progress(14 * MB, busy(1000, 1))).toBeNull();
    expect([...oneCore.started, ...sharing.started]).toEqual([]);
  });
});

describe('PartBoundary: one of the two threads builds the claimed item, never both', () => {
  it('the file’s thread stops at the item claimed before it got there', () => {
    const boundary = PartBoundary.local();
    expect(boundary.reached(10)).toBe(false);
    expect(boundary.claim(500)).toBe(true);
    expect(boundary.reached(499)).toBe(false);
    expect(boundary.reached(500)).toBe(true);
  });

  it('the helper cannot claim an item the file’s thread is at or past', () => {
    const boundary = PartBoundary.local();
    expect(boundary.reached(500)).toBe(false);
    expect(boundary.claim(500)).toBe(false);
    expect(boundary.claim(400)).toBe(false);
    expect(boundary.claim(501)).toBe(true);
  });

  it('two views of one shared array see each other (a worker and its file’s thread)', () => {
    const shared = new Int32Array(new SharedArrayBuffer(16));
    const fileThread = new PartBoundary(shared, 2);
    fileThread.reset();
    const helper = new PartBoundary(shared, 2);
    expect(helper.claim(7)).toBe(true);
    expect(fileThread.reached(6)).toBe(false);
    expect(fileThread.reached(7)).toBe(true);
    expect([shared[0], shared[1]]).toEqual([0, 0]);
  });
});
