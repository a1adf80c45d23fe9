import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { openFileSource } from '../../../src-main/core/bytes/file-source';
import {
  PartBoundary,
  type FormatPartReader,
  type PartReader,
  type PendingPart,
} from '../../../src-main/core/bytes/part-reader';
import type { FormatOpened } from '../../../src-main/core/formats/format-descriptor';
import { gpuProfileFormat } from '../../../src-main/core/formats/chrome/open/gpu-profile';
import { openTraceFile } from '../../../src-main/core/open/open-trace-file';
import { unpackRow } from '../../../src-main/core/rows/packed-items';

/**
 * A GPU profile's ranks read side by side (open/rank-helpers.ts): the ranks a helper thread
 * reads come back as the profile would have read them itself, the rank named like an earlier
 * one is read again here, and a helper that fails costs nothing but its time. The helper runs
 * in this thread (readPart, then a structured clone as a thread's message makes it); the CLI
 * test runs the real threads.
 */
const dir = mkdtempSync(join(tmpdir(), 'gpu-ranks-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The gpu fixture's ranks, inflated: a helper reads a rank again by its path. */
const ranks = ['rank-0', 'rank-1'].map((name) => {
  const path = join(dir, `${name}.json`);
  writeFileSync(path, gunzipSync(readFileSync(`tests/fixtures/gpu/${name}.json.gz`)));
  return path;
});

interface HelperLog {
  started: number[];
  cancelled: number;
  /** helpers started and not yet waited for or cancelled: now, and the most at once */
  inFlight?: number;
  mostInFlight?: number;
}

/** A PartReader whose helper is this thread; `lose`: every part fails (wait gives null). */
function inProcessReader(log: HelperLog, lose = false): PartReader {
  return {
    threads: 3,
    splitMinSeconds: 0,
    start(path, from): PendingPart | null {
      const index = from as number;
      log.started.push(index);
      log.inFlight = (log.inFlight ?? 0) + 1;
      log.mostInFlight = Math.max(log.mostInFlight ?? 0, log.inFlight);
      const done = () => (log.inFlight = (log.inFlight ?? 1) - 1);
      const source = openFileSource(path);
      let part: unknown;
      try {
        const read = gpuProfileFormat.readPart!(source, index, {
          onBytes: () => {},
          onPosting: () => {},
          boundary: PartBoundary.local(),
          partStart: () => index,
          send: () => {},
        });
        part = structuredClone(read.part, { transfer: read.transfer });
      } finally {
        source.close();
      }
      return {
        wait: () => {
          done();
          return lose ? null : part;
        },
        bytesRead: () => 0,
        cancel: () => {
          done();
          log.cancelled++;
        },
      };
    },
  };
}

/** `reader` as the open pipeline takes it (for every format: this test's is the GPU profile) */
const gpuPartReader = (reader: PartReader): FormatPartReader => ({
  start: (_format, path, from) => reader.start(path, from),
  threads: reader.threads,
  splitMinSeconds: reader.splitMinSeconds,
});

const open = (paths: string[], partReader?: PartReader, splitMinBytes?: number) =>
  gpuProfileFormat.open(
    paths.map((p) => openFileSource(p)),
    { partReader, splitMinBytes },
  );

/** Everything an open gives, rows unpacked to their items (packers differ between threads). */
const plain = (opened: FormatOpened) => ({
  ...opened,
  rows: opened.rows.map((row) => {
    const { packed: _packed, ...fields } = row;
    return { ...fields, items: unpackRow(row).items };
  }),
});

describe("a GPU profile's ranks read on helper threads", () => {
  const alone = plain(open(ranks));

  it('give the same profile as one thread reading them all, rows, figures and notes', () => {
    const log: HelperLog = { started: [], cancelled: 0 };
    const { helperShare, ...opened } = open(ranks, inProcessReader(log));
    expect(log.started).toEqual([1]);
    expect(plain(opened)).toEqual(alone);
    // the share of the bytes a helper read (--timings prints it): rank 1's
    expect(helperShare).toBeCloseTo(1690403 / (1759570 + 1690403), 9);
    // what the fixture's README states, as a check that the comparison compares something
    expect(opened.gpuProfile!.ranks.map((r) => r.label)).toEqual(['rank 0', 'rank 1']);
    expect(opened.rows.length).toBe(2);
  });

  it('a helper that fails leaves its rank to this thread, with the same result', () => {
    const log: HelperLog = { started: [], cancelled: 0 };
    const opened = open(ranks, inProcessReader(log, true));
    expect(opened.helperShare).toBeUndefined();
    expect(plain(opened)).toEqual(alone);
    expect(log.started).toEqual([1]);
  });

  it('a rank named like an earlier one is read again here under its told-apart label', () => {
    const copy = join(dir, 'rank-0-copy.json');
    writeFileSync(copy, readFileSync(ranks[0]));
    const log: HelperLog = { started: [], cancelled: 0 };
    const both = [ranks[0], copy];
    const opened = open(both, inProcessReader(log));
    expect(log.started).toEqual([1]);
    // read again here: no helper's bytes count
    expect(opened.helperShare).toBeUndefined();
    expect(opened.gpuProfile!.ranks.map((r) => r.label)).toEqual([
      'rank 0',
      'rank 0 (rank-0-copy.json)',
    ]);
    expect(plain(opened)).toEqual(plain(open(both)));
  });

  it('ranks too small to pay for a thread, or one thread, are read here', () => {
    const log: HelperLog = { started: [], cancelled: 0 };
    const reader = inProcessReader(log);
    open(ranks, { ...reader, splitMinSeconds: undefined });
    open(ranks, { ...reader, threads: 1 });
    expect(log.started).toEqual([]);
    // past the size given, they are not
    open(ranks, { ...reader, splitMinSeconds: undefined }, 1024);
    expect(log.started).toEqual([1]);
  });

  it('no more ranks are read at once than the machine runs threads, this one waiting', () => {
    const many = [0, 1, 2, 3, 4].map((k) => {
      const copy = join(dir, `rank-${k}-of-5.json`);
      writeFileSync(copy, readFileSync(ranks[k % 2]));
      return copy;
    });
    for (const threads of [2, 3]) {
      const log: HelperLog = { started: [], cancelled: 0 };
      open(many, { ...inProcessReader(log), threads });
      expect(log.started).toEqual([1, 2, 3, 4]);
      // two helpers on two threads while this one waits: three ranks at once held 45% more memory
      expect(log.mostInFlight, `${threads} threads`).toBe(threads);
    }
  });

  it('a gzipped rank is read by its helper from the file, never inflated here', () => {
    const gzipped = ['rank-0', 'rank-1'].map((name) => `tests/fixtures/gpu/${name}.json.gz`);
    const log: HelperLog = { started: [], cancelled: 0 };
    const sources = gzipped.map((path) => openFileSource(path));
    const reads: number[] = [0, 0];
    // the file's reads past its head (magic and trailer): each time it is inflated here
    const counted = sources.map((source, k) => ({
      ...source,
      read: (offset: number, length: number, into?: Uint8Array) => {
        if (length > 4) reads[k]++;
        return source.read(offset, length, into);
      },
    }));
    try {
      const opened = openTraceFile(counted, { partReader: gpuPartReader(inProcessReader(log)) });
      expect(log.started).toEqual([1]);
      expect(reads[1]).toBe(0);
      expect(opened.summary.gpuProfile?.ranks.map((r) => r.label)).toEqual(['rank 0', 'rank 1']);
      expect(opened.summary.notices).toContainEqual(
        expect.stringMatching(new RegExp(`^gzip: ${1759570 + 1690403} bytes inflated from `)),
      );
    } finally {
      for (const source of sources) source.close();
    }
  });

  it('an open that stops early ends the helpers still reading', () => {
    const log: HelperLog = { started: [], cancelled: 0 };
    const sources = [...ranks, ranks[1]].map((p) => openFileSource(p));
    expect(() =>
      gpuProfileFormat.open(sources, {
        partReader: inProcessReader(log),
        shouldCancel: () => true,
      }),
    ).toThrow(/cancelled/);
    expect(log.started).toEqual([1, 2]);
    expect(log.cancelled).toBe(2);
  });
});
