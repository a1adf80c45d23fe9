import { describe, expect, it } from 'vitest';
import { bytesSource, type ByteSource } from '../../../src-main/core/bytes/byte-source';
import {
  LineSkips,
  bomLength,
  readJsonLines,
  readLines,
  sniffJsonLine,
} from '../../../src-main/core/formats/json-lines/read-json-lines';

const encode = (text: string) => new TextEncoder().encode(text);
const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/**
 * A source that hands out at most `step` bytes per read, writing them into the caller's spent
 * buffer when it is given one: lines cut at every boundary, and lines collected before they are
 * decoded (`[...readLines()]`) read overwritten bytes if the walk reused a buffer.
 */
function tinyReads(bytes: Uint8Array, step: number): ByteSource & { reads: number } {
  const source = {
    name: 'tiny.jsonl',
    size: bytes.length,
    reads: 0,
    read(offset: number, length: number, into?: Uint8Array) {
      source.reads++;
      const part = bytes.subarray(offset, Math.min(offset + Math.min(length, step), bytes.length));
      if (into && into.length >= part.length) {
        into.set(part);
        return into.subarray(0, part.length);
      }
      return part.slice();
    },
  };
  return source;
}

const TEXT = '{"a":1}\r\n\n  \n{"b":[1,2]}\nnot json\n{"c":"\u00e9"}\n{"cut":';

describe('readLines', () => {
  it('splits on bytes, drops CR before LF, numbers lines and gives offsets', () => {
    const skipped = new LineSkips();
    const lines = [...readLines(bytesSource('x', encode('ab\r\ncd\n\nef')), skipped)].map((l) => [
      l.number,
      l.offset,
      decode(l.bytes),
      l.terminated,
    ]);
    expect(lines).toEqual([
      [1, 0, 'ab', true],
      [2, 4, 'cd', true],
      [3, 7, '', true],
      [4, 8, 'ef', false],
    ]);
    expect(skipped.count).toBe(0);
  });

  it('gives the same lines from reads of 1 to 7 bytes into reused buffers', () => {
    const bytes = encode(TEXT);
    const whole = [...readLines(bytesSource('x', bytes), new LineSkips())].map((l) => [
      l.number,
      l.offset,
      decode(l.bytes),
    ]);
    for (let step = 1; step <= 7; step++) {
      const lines = [...readLines(tinyReads(bytes, step), new LineSkips())].map((l) => [
        l.number,
        l.offset,
        decode(l.bytes),
      ]);
      expect(lines, `step ${step}`).toEqual(whole);
    }
    expect(whole.map(([, , text]) => text)).toEqual([
      '{"a":1}',
      '',
      '  ',
      '{"b":[1,2]}',
      'not json',
      '{"c":"é"}',
      '{"cut":',
    ]);
  });

  it('drops a byte-order mark before the first line, its offset then 3, in reads of any size', () => {
    const bytes = encode('\ufeff{"a":1}\r\nb\n');
    for (let step = 1; step <= 7; step++) {
      const lines = [...readLines(tinyReads(bytes, step), new LineSkips())].map((l) => [
        l.number,
        l.offset,
        decode(l.bytes),
      ]);
      expect(lines, `step ${step}`).toEqual([
        [1, 3, '{"a":1}'],
        [2, 12, 'b'],
      ]);
    }
    // only before the first line, and only from the file's start
    expect(
      [...readLines(bytesSource('x', encode('a\n\ufeffb\n')), new LineSkips())].map(
        (l) => l.bytes.length,
      ),
    ).toEqual([1, 4]);
    expect(bomLength(encode('\ufeff{'))).toBe(3);
    expect(bomLength(encode('{'))).toBe(0);
  });

  it('oneBuffer: every read into one buffer, each line whole when it is given', () => {
    const bytes = encode(TEXT);
    const whole = [...readLines(bytesSource('x', bytes), new LineSkips())].map((l) =>
      decode(l.bytes),
    );
    for (let step = 1; step <= 7; step++) {
      const source = tinyReads(bytes, step);
      const given: Uint8Array[] = [];
      const read = source.read.bind(source);
      source.read = (offset, length, into) => {
        if (into) given.push(into);
        return read(offset, length, into);
      };
      // decoded as given: the next read writes over the buffer
      const texts: string[] = [];
      for (const l of readLines(source, new LineSkips(), { oneBuffer: true, chunkBytes: 7 }))
        texts.push(decode(l.bytes));
      expect(texts, `step ${step}`).toEqual(whole);
      // one buffer, given to every read
      expect(new Set(given).size, `step ${step}`).toBe(1);
      expect(given.length).toBe(source.reads);
    }
  });

  it('skips and counts a line past the bound, in one read or many, and reads on', () => {
    const bytes = encode('short\n' + 'x'.repeat(40) + '\nok\n' + 'y'.repeat(50));
    for (const source of [bytesSource('x', bytes), tinyReads(bytes, 3)]) {
      const skipped = new LineSkips();
      const lines = [...readLines(source, skipped, { maxLineBytes: 16 })].map((l) => [
        l.number,
        decode(l.bytes),
      ]);
      expect(lines).toEqual([
        [1, 'short'],
        [3, 'ok'],
      ]);
      expect(skipped.counted()).toEqual({
        count: 2,
        examples: [
          { line: 2, reason: 'longer than 16 bytes (not read)' },
          { line: 4, reason: 'longer than 16 bytes (not read)' },
        ],
      });
    }
  });

  it('reads [from, to) with progress from `from`, and stops when cancelled', () => {
    const bytes = encode('a\nbb\nccc\n');
    const progress: number[] = [];
    const lines = [
      ...readLines(tinyReads(bytes, 2), new LineSkips(), {
        from: 2,
        to: 5,
        onProgress: (n) => progress.push(n),
      }),
    ];
    expect(lines.map((l) => [l.number, l.offset, decode(l.bytes)])).toEqual([[1, 2, 'bb']]);
    expect(progress).toEqual([2, 3]);
    expect(() => [
      ...readLines(bytesSource('x', bytes), new LineSkips(), { shouldCancel: () => true }),
    ]).toThrow(expect.objectContaining({ code: 'open/cancelled' }));
  });
});

describe('readJsonLines', () => {
  it('parses each non-blank line; not JSON and a cut-off last line are counted', () => {
    const skipped = new LineSkips();
    const values = [...readJsonLines(tinyReads(encode(TEXT), 5), skipped)].map((l) => [
      l.number,
      l.value,
    ]);
    expect(values).toEqual([
      [1, { a: 1 }],
      [4, { b: [1, 2] }],
      [6, { c: 'é' }],
    ]);
    expect(skipped.counted()).toEqual({
      count: 2,
      examples: [
        { line: 5, reason: 'not JSON' },
        { line: 7, reason: 'cut off (no newline at the end, not JSON)' },
      ],
    });
    expect(skipped.notice()).toBe('2 lines skipped (first: line 5 not JSON)');
  });

  it('reads a last line without a newline when it parses, and drops a byte-order mark', () => {
    const skipped = new LineSkips();
    const values = [...readJsonLines(bytesSource('x', encode('\ufeff{"a":1}\n{"b":2}')), skipped)];
    expect(values.map((l) => l.value)).toEqual([{ a: 1 }, { b: 2 }]);
    expect(skipped.notice()).toBeNull();
  });

  it('keeps five examples and counts them all', () => {
    const skipped = new LineSkips();
    expect([...readJsonLines(bytesSource('x', encode('x\n'.repeat(9))), skipped)]).toEqual([]);
    expect(skipped.count).toBe(9);
    expect(skipped.examples.map((e) => e.line)).toEqual([1, 2, 3, 4, 5]);
    expect(new LineSkips(1).notice()).toBeNull();
  });
});

describe('sniffJsonLine', () => {
  const isA = (value: unknown) => (value as { a?: unknown }).a === 1;
  it('asks the first non-blank line, whole or up to the head’s end', () => {
    expect(sniffJsonLine(encode('\n \r\n{"a":1}\r\nnot json'), isA)).toBe(true);
    expect(sniffJsonLine(encode('{"a":1}'), isA)).toBe(true);
    expect(sniffJsonLine(encode('{"a":2}\n{"a":1}\n'), isA)).toBe(false);
  });
  it('is false, never a throw, for text that is not a JSON line', () => {
    expect(sniffJsonLine(encode('{"a":1, "b": "cut by the he'), isA)).toBe(false);
    expect(sniffJsonLine(encode('a,b\n1,2\n'), isA)).toBe(false);
    expect(sniffJsonLine(new Uint8Array([0x80, 0x02, 0x8a]), isA)).toBe(false);
    expect(sniffJsonLine(encode(''), isA)).toBe(false);
    expect(
      sniffJsonLine(encode('{}'), () => {
        throw new Error('a test that throws');
      }),
    ).toBe(false);
  });
});
