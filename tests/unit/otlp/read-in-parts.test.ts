import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  readOtlp,
  readRangeToColumns,
  type PendingRange,
  type RangeReader,
} from '../../../src-main/core/formats/otlp/read-otlp';
import type { RawSpan } from '../../../src-main/core/formats/otlp/import-spans';
import {
  SpanColumnsWriter,
  readSpanColumns,
} from '../../../src-main/core/formats/otlp/span-columns';
import { openFileSource } from '../../../src-main/core/bytes/file-source';
import { EMPTY_ATTRS, statusFrom } from '../../../src-main/core/formats/otlp/otlp-values';
import { OTLP, readManifest } from '../../support/fixtures';

/** The helper thread's work done in-process, its result structured-cloned as postMessage would. */
function inProcessReader(log: string[] = []): RangeReader {
  return {
    threads: 2,
    start(path, start): PendingRange {
      // OTLP's parts start where the file's thread says at once (a line's end)
      if (typeof start !== 'number') throw new Error('an OTLP part is told where it starts');
      const from = start;
      log.push(`start ${from}`);
      return {
        wait() {
          const source = openFileSource(path);
          try {
            const { read, transfer } = readRangeToColumns(source, from);
            return structuredClone(read, { transfer });
          } finally {
            source.close();
          }
        },
        bytesRead: () => 0,
        cancel: () => void log.push('cancel'),
      };
    },
  };
}

const failingReader: RangeReader = {
  threads: 2,
  start: () => ({ wait: () => null, bytesRead: () => 0, cancel: () => undefined }),
};

/** every OTLP fixture the manifest lists (tests/fixtures/manifest.json), not a folder listing */
const fixtures = readManifest()
  .inputs.filter((i) => i.file.startsWith('otlp/'))
  .map((i) => i.file.slice('otlp/'.length));
const open = (name: string) => openFileSource(resolve(OTLP, name));

describe('a large file read in two parts gives the one-thread reading', () => {
  for (const name of fixtures) {
    it(name, () => {
      const whole = readOtlp([open(name)]);
      const log: string[] = [];
      const { helperShare, ...parts } = readOtlp([open(name)], {
        rangeReader: inProcessReader(log),
        splitMinBytes: 0,
      });
      expect(parts).toEqual(whole);
      // every file with more than one line was split; the empty one has nothing to split
      expect(log[0] ?? 'none', name).toMatch(
        name === 'otlp_empty.jsonl' ? /^none$/ : /^start \d+$/,
      );
      // the share the helper read: from its line's start to the file's end
      const size = open(name).size;
      const from = Number(log[0]?.slice('start '.length));
      if (log[0] === undefined) expect(helperShare).toBeUndefined();
      else expect(helperShare).toBeCloseTo((size - from) / size, 12);
      // a helper that fails leaves its part to this thread
      expect(readOtlp([open(name)], { rangeReader: failingReader, splitMinBytes: 0 })).toEqual(
        whole,
      );
    });
  }

  it('skipped lines of the second part keep their line numbers in the file', () => {
    const name = 'otlp_mixed_garbage.jsonl';
    const parts = readOtlp([open(name)], { rangeReader: inProcessReader(), splitMinBytes: 0 });
    const whole = readOtlp([open(name)]);
    expect(parts.skippedLines.examples.length).toBeGreaterThan(4);
    expect(parts.skippedLines).toEqual(whole.skippedLines);
  });

  it('a rotated set: each file split, lines named with their file', () => {
    const set = () => [open('roll_traces.jsonl'), open('otlp_mixed_garbage.jsonl')];
    const whole = readOtlp(set());
    const log: string[] = [];
    const { helperShare, ...parts } = readOtlp(set(), {
      rangeReader: inProcessReader(log),
      splitMinBytes: 0,
    });
    expect(parts).toEqual(whole);
    expect(whole.skippedLines.examples[0].reason).toContain('(otlp_mixed_garbage.jsonl)');
    // the helpers' parts of both files, over both files' bytes
    const sizes = set().map((source) => source.size);
    const helperBytes = log.reduce((sum, line, k) => sum + sizes[k] - Number(line.slice(6)), 0);
    expect(log).toHaveLength(2);
    expect(helperShare).toBeCloseTo(helperBytes / (sizes[0] + sizes[1]), 12);
  });

  it('progress while the first part is read counts the helper’s bytes too', () => {
    const log: string[] = [];
    const reader = inProcessReader(log);
    const counting: RangeReader = {
      threads: 2,
      start(path, from) {
        const pending = reader.start(path, from)!;
        return { ...pending, bytesRead: () => 123 };
      },
    };
    const reports: number[] = [];
    readOtlp([open('roll_traces.jsonl')], {
      rangeReader: counting,
      splitMinBytes: 0,
      onProgress: (p) => reports.push(p.bytesRead),
    });
    const split = Number(log[0].split(' ')[1]);
    expect(reports[0]).toBe(split + 123);
    expect(reports.at(-1)).toBe(open('roll_traces.jsonl').size);
  });

  it('cancelling while the first part is read stops the helper', () => {
    const log: string[] = [];
    let ticks = 0;
    expect(() =>
      readOtlp([open('roll_traces.jsonl')], {
        rangeReader: inProcessReader(log),
        splitMinBytes: 0,
        shouldCancel: () => ++ticks > 0,
      }),
    ).toThrow(/cancelled/);
    expect(log).toEqual([expect.stringMatching(/^start/), 'cancel']);
  });
});

describe('span columns carry RawSpans across threads unchanged', () => {
  it('every field, odd values included, after a structured clone', () => {
    const resource = { 'service.name': 'svc' };
    const spans: RawSpan[] = [
      {
        resource,
        scope: 'scope',
        traceId: 'aa',
        spanId: 'bb',
        parentSpanId: undefined,
        name: 'n',
        kind: 'SERVER',
        start: 1.5,
        end: null,
        status: statusFrom(2, 'boom'),
        attrs: JSON.parse(
          '{"__proto__": 1, "a": "x", "b": null, "c": [1, "2"]}',
        ) as RawSpan['attrs'],
        events: [
          { name: 'e', ts: 2, attrs: EMPTY_ATTRS },
          { name: 'f', ts: null, attrs: { k: true } },
        ],
        links: [{ traceId: 'aa', spanId: 7, attrs: EMPTY_ATTRS }],
      },
      {
        resource,
        scope: '',
        traceId: 42,
        spanId: '',
        parentSpanId: 'aa',
        name: '',
        kind: 'UNSPECIFIED',
        start: 3,
        end: 4,
        status: statusFrom(undefined, undefined),
        attrs: EMPTY_ATTRS,
        events: [],
        links: null,
      },
    ];
    const dropped: RawSpan = { ...spans[1], start: null };
    const writer = new SpanColumnsWriter();
    for (const span of [spans[0], dropped, spans[1], spans[0]]) writer.push(span);
    const { columns, transfer } = writer.finish();
    const received = structuredClone(columns, { transfer });
    const out: RawSpan[] = [];
    readSpanColumns(received, (raw) => out.push({ ...raw }));
    expect(out).toEqual([...spans, spans[0]]);
    // one attributes object read twice is one object again
    expect(out[2].attrs).toBe(out[0].attrs);
    expect(Object.keys(out[0].attrs)).toEqual(['__proto__', 'a', 'b', 'c']);
    expect(Object.getPrototypeOf(out[0].attrs)).toBe(Object.prototype);
    // shared values stay shared: one resource, the empty attributes, plain statuses
    expect(out[0].resource).toBe(out[1].resource);
    expect(out[1].attrs).toBe(EMPTY_ATTRS);
    expect(out[0].events![0].attrs).toBe(EMPTY_ATTRS);
    expect(out[1].status).toBe(spans[1].status);
  });
});
