import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bytesSource, type ByteSource } from '../../../src-main/core/bytes/byte-source';
import { FORMATS, findFormat, sniffHeadAt } from '../../../src-main/core/formats/registry';
import { skeletonFormat } from '../../../src-main/core/formats/skeleton/descriptor';
import { SNIFF_BYTES, SNIFF_LINE_MAX_BYTES } from '../../../src-main/core/formats/sniff-head';
import { openTraceFile } from '../../../src-main/core/open/open-trace-file';
import { unpackRow } from '../../../src-main/core/rows/packed-items';
import { FIXTURES, fixtureSource } from '../../support/fixtures';

// The skeleton format, the template a contributor copies (src-main/core/formats/skeleton): it is
// not registered, so this test adds it to the list it opens with. A copy's test starts here.
const WITH_SKELETON = [...FORMATS, skeletonFormat];
const SPANS = join(FIXTURES, 'skeleton/spans.jsonl');
const LONG = join(FIXTURES, 'skeleton/long_first_line.jsonl');

/** A source that counts the bytes read from it. */
function counting(source: ByteSource): ByteSource & { bytesRead: number } {
  const counted = {
    name: source.name,
    size: source.size,
    bytesRead: 0,
    read(offset: number, length: number) {
      const bytes = source.read(offset, length);
      counted.bytesRead += bytes.length;
      return bytes;
    },
  };
  return counted;
}

describe('the skeleton format', () => {
  it('opens its fixture as its README counts: rows, spans, skipped lines', () => {
    const opened = openTraceFile([fixtureSource(SPANS)], { formats: WITH_SKELETON });
    expect(opened.summary).toMatchObject({
      format: 'skeleton',
      samples: 3,
      rows: 2,
      spans: 3,
      globalStartSec: 100,
      globalEndSec: 102,
      skippedLines: {
        count: 3,
        examples: [
          { line: 3, reason: 'not JSON' },
          { line: 4, reason: 'no "skeleton": 1' },
          { line: 6, reason: 'cut off (no newline at the end, not JSON)' },
        ],
      },
    });
    expect(opened.rows.map((r) => [r.source, r.start, r.end, r.item_count])).toEqual([
      ['worker-0', 100, 101.5, 2],
      ['worker-1', 100.5, 102, 1],
    ]);
  });

  it('nests a row’s spans by time and keeps the other keys as attributes', () => {
    const opened = openTraceFile([fixtureSource(SPANS)], { formats: WITH_SKELETON });
    const { items } = unpackRow(opened.rows[0]);
    expect(items.map((item) => [item.name, item.lane])).toEqual([
      ['generate', 0],
      ['decode', 1],
    ]);
    expect(items[0].type === 'span' && items[0].attrs.start_attrs).toEqual({ tokens: 512 });
  });

  it('is sniffed and opened when its first line (200 KB) is longer than the sniff head', () => {
    const bytes = readFileSync(LONG);
    expect(bytes.indexOf(0x0a)).toBeGreaterThan(200_000);
    const source = counting(bytesSource('long_first_line.jsonl', bytes));
    const opened = openTraceFile([source], { formats: WITH_SKELETON });
    expect(opened.summary).toMatchObject({ format: 'skeleton', rows: 2, spans: 2 });
    expect(opened.rows.map((r) => [r.source, r.start, r.end])).toEqual([
      ['prompt-0', 200, 203],
      ['prompt-1', 201, 202],
    ]);
    // the same descriptor sniffing the 64 KiB head alone sees no whole line: not its file
    const headOnly = [...FORMATS, { ...skeletonFormat, sniffReach: 'head' as const }];
    expect(() =>
      openTraceFile([bytesSource('long_first_line.jsonl', bytes)], { formats: headOnly }),
    ).toThrow(expect.objectContaining({ code: 'open/unknown-format' }));
  });
});

describe('the sniff head', () => {
  it('reads past 64 KiB only for a format that asks, up to the first line’s end', () => {
    const source = counting(fixtureSource(LONG));
    const head = sniffHeadAt(source);
    expect(head.bytes.length).toBe(SNIFF_BYTES);
    expect(source.bytesRead).toBe(SNIFF_BYTES);
    const line = head.throughFirstLine();
    expect(line.length).toBe(readFileSync(LONG).indexOf(0x0a) + 1);
    expect(line[line.length - 1]).toBe(0x0a);
    // doubling reads from 256 KiB: a 200 KB line costs one read past the head
    expect(source.bytesRead).toBe(SNIFF_BYTES + source.size);
    expect(head.throughFirstLine()).toBe(line);
    // the registered formats never ask: the head is all they read
    const plain = counting(fixtureSource(LONG));
    expect(findFormat(sniffHeadAt(plain), 'long_first_line.jsonl', plain.size)).toBeNull();
    expect(plain.bytesRead).toBe(SNIFF_BYTES);
    expect(findFormat(sniffHeadAt(plain), 'x.jsonl', plain.size, WITH_SKELETON)).toBe(
      skeletonFormat,
    );
  });

  it('stops at its bound for a line with no end, and at the end of a short file', () => {
    const endless = counting(bytesSource('endless', new Uint8Array(10 * 1024 * 1024).fill(0x61)));
    expect(sniffHeadAt(endless).throughFirstLine().length).toBe(SNIFF_LINE_MAX_BYTES);
    // 64 KiB, then 256 KiB, 512 KiB, 1, 2 and 4 MiB
    expect(endless.bytesRead).toBe(SNIFF_BYTES + (256 + 512 + 1024 + 2048 + 4096) * 1024);
    const short = bytesSource('short', new TextEncoder().encode('{"a":1}'));
    expect(sniffHeadAt(short).throughFirstLine()).toEqual(short.read(0, 7));
    const twoLines = bytesSource('two', new TextEncoder().encode('a'.repeat(SNIFF_BYTES) + '\nb'));
    expect(sniffHeadAt(twoLines).throughFirstLine().length).toBe(SNIFF_BYTES + 1);
  });
});
