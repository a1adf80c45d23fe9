import { describe, expect, it } from 'vitest';
import { bytesSource } from '../../../src-main/core/bytes/byte-source';
import { FormatError } from '../../../src-main/core/bytes/format-error';
import { PickleCursor } from '../../../src-main/core/formats/pickle/pickle-cursor';
import { readPickle } from '../../../src-main/core/formats/pickle/read-pickle';
import { readLazyList } from '../../../src-main/core/formats/slime/read-slime-dump';
import type { LazyList } from '../../../src-main/core/model/py-value';

// Token lists (MARK, numbers, APPENDS onto a list) are counted where they lie instead of being
// pushed one by one (read-pickle's appendNumbers, PickleCursor.scanNumbers). These pickles are
// written opcode by opcode; each expected range is counted off the bytes written here.

const PROTO = [0x80, 2];
const EMPTY_LIST = 0x5d;
const BINPUT0 = [0x71, 0];
const MARK = 0x28;
const APPENDS = 0x65;
const STOP = 0x2e;

/** an int as CPython pickles it: BININT1, BININT2 or BININT */
function int(v: number): number[] {
  if (v >= 0 && v < 256) return [0x4b, v];
  if (v >= 0 && v < 65536) return [0x4d, v & 0xff, v >> 8];
  const b = new Uint8Array(4);
  new DataView(b.buffer).setInt32(0, v, true);
  return [0x4a, ...b];
}
function float(v: number): number[] {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setFloat64(0, v, false);
  return [0x47, ...b];
}
const batch = (values: number[][]) => [MARK, ...values.flat(), APPENDS];

function read(bytes: number[] | Uint8Array) {
  const source = bytesSource(
    'numbers.pkl',
    bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes),
  );
  return { source, value: readPickle(new PickleCursor(source, 0, 0)).value };
}

describe('token-sized lists are counted as byte ranges without being pushed', () => {
  it('one batch of ints of each width becomes a lazy int list whose bytes read back', () => {
    const values = Array.from({ length: 100 }, (_, i) =>
      i % 3 === 0 ? i : i % 3 === 1 ? 300 + i : -5 - i,
    );
    const list = batch(values.map(int));
    const { source, value } = read([...PROTO, EMPTY_LIST, ...BINPUT0, ...list, STOP]);
    // the range starts at EMPTY_LIST (after the 2 protocol bytes) and ends after APPENDS
    expect(value).toEqual({
      $kind: 'lazy-list',
      length: 100,
      elemType: 'int',
      byteOffset: 2,
      byteLength: 1 + 2 + list.length,
    });
    expect(readLazyList(source, value as LazyList)).toEqual(values);
  });

  it('floats: a fraction makes the list float, whole-valued floats stay int (as when pushed)', () => {
    const whole = read([
      ...PROTO,
      EMPTY_LIST,
      ...batch(Array.from({ length: 64 }, (_, i) => float(i))),
      STOP,
    ]).value as LazyList;
    expect(whole.elemType).toBe('int');
    const halves = Array.from({ length: 64 }, (_, i) => -i / 2);
    const { source, value } = read([...PROTO, EMPTY_LIST, ...batch(halves.map(float)), STOP]);
    expect((value as LazyList).elemType).toBe('float');
    expect(readLazyList(source, value as LazyList)).toEqual(halves);
  });

  it('later batches extend the range; a fraction in a later batch turns int into float', () => {
    const first = batch(Array.from({ length: 1000 }, (_, i) => int(i)));
    const second = batch([...Array.from({ length: 23 }, (_, i) => int(i)), float(0.25)]);
    const { source, value } = read([...PROTO, EMPTY_LIST, ...first, ...second, STOP]);
    expect(value).toEqual({
      $kind: 'lazy-list',
      length: 1024,
      elemType: 'float',
      byteOffset: 2,
      byteLength: 1 + first.length + second.length,
    });
    expect(readLazyList(source, value as LazyList).slice(998)).toEqual([
      998,
      999,
      ...Array.from({ length: 23 }, (_, i) => i),
      0.25,
    ]);
  });

  it('fewer numbers than a lazy list needs, or a batch that is not all numbers, stay a list', () => {
    const short = Array.from({ length: 63 }, (_, i) => i);
    expect(read([...PROTO, EMPTY_LIST, ...batch(short.map(int)), STOP]).value).toEqual(short);
    const mixed = [...Array.from({ length: 70 }, (_, i) => int(i)), [0x4e]];
    expect(read([...PROTO, EMPTY_LIST, ...batch(mixed), STOP]).value).toEqual([
      ...Array.from({ length: 70 }, (_, i) => i),
      null,
    ]);
  });

  it('numbers after a list that are not appended to it read as usual (a tuple beside the list)', () => {
    const numbers = Array.from({ length: 70 }, (_, i) => i);
    // ([], (0, ..., 69)): EMPTY_LIST, MARK, 70 ints, TUPLE, TUPLE2
    const value = read([
      ...PROTO,
      EMPTY_LIST,
      MARK,
      ...numbers.flatMap(int),
      0x74,
      0x86,
      STOP,
    ]).value;
    // compared as JSON: the reader keeps a nesting depth on each container under a symbol
    expect(JSON.parse(JSON.stringify(value))).toEqual([[], numbers]);
  });

  it("a run across the reader's 8 MB window counts every number and reads on after it", () => {
    const perBatch = 1000;
    const batches = 5000; // 5M BININT1: 10 MB of numbers
    const one = new Uint8Array(2 + perBatch * 2);
    one[0] = MARK;
    for (let i = 0; i < perBatch; i++) one.set([0x4b, i & 0xff], 1 + 2 * i);
    one[one.length - 1] = APPENDS;
    const head = [...PROTO, EMPTY_LIST];
    const tail = [0x8c, 3, ...Buffer.from('end'), 0x86, STOP]; // (list, "end")
    const bytes = new Uint8Array(head.length + one.length * batches + tail.length);
    bytes.set(head, 0);
    for (let b = 0; b < batches; b++) bytes.set(one, head.length + b * one.length);
    bytes.set(tail, head.length + one.length * batches);
    const [list, end] = read(bytes).value as [LazyList, string];
    expect(list).toEqual({
      $kind: 'lazy-list',
      length: perBatch * batches,
      elemType: 'int',
      byteOffset: 2,
      byteLength: 1 + one.length * batches,
    });
    expect(end).toBe('end');
  });

  it("a short run across the window's end is read again from the window, not the file", () => {
    // [strings..., [10 ints], strings...]: the short list's numbers start 20 bytes before the
    // reader's first 8 MB window ends. Too few for a lazy list, they are counted past the end
    // (the next window read), then read again one at a time from the run's start
    const WINDOW = 8 * 1024 * 1024;
    const text = (n: number) => [
      0x58,
      n & 0xff,
      (n >> 8) & 0xff,
      0,
      0,
      ...Array<number>(n).fill(0x61),
    ];
    const head = [...PROTO, EMPTY_LIST, ...BINPUT0, MARK];
    const listHead = [EMPTY_LIST, 0x71, 1, MARK];
    const fill = WINDOW - 20 - head.length - listHead.length;
    const strings: number[][] = [];
    for (let left = fill; left > 0;) {
      const n = Math.min(1000, left - 5);
      strings.push(text(n));
      left -= 5 + n;
    }
    const ints = Array.from({ length: 10 }, (_, i) => 70_000 + i);
    const parts = [
      head,
      ...strings,
      listHead,
      ...ints.map(int),
      [APPENDS],
      ...strings, // as much again after it: a window read again would read most of it twice
      [APPENDS, STOP],
    ];
    const bytes = new Uint8Array(parts.flat());
    expect(head.length + strings.flat().length + listHead.length).toBe(WINDOW - 20);
    let bytesRead = 0;
    const source = bytesSource('short-run.pkl', bytes);
    const counted = {
      ...source,
      read(offset: number, length: number) {
        const read = source.read(offset, length);
        bytesRead += read.byteLength;
        return read;
      },
    };
    const value = readPickle(new PickleCursor(counted, 0, 0)).value as unknown[];
    expect(value).toHaveLength(strings.length * 2 + 1);
    expect(value[strings.length]).toEqual(ints);
    // every byte once, but for a few KB read again at each window's start
    expect(bytesRead).toBeLessThan(bytes.length + 64 * 1024);
  });

  it.each([
    ['the last number a fraction: float', 0.5, 'float'],
    ['every float whole: int', 3, 'int'],
  ])('a run of every width across the window counts each number (%s)', (_, lastValue, elemType) => {
    // 4 numbers of 19 bytes (BININT, BININT2, BININT1, a whole BINFLOAT) over and over, 2M of
    // them in 2,000 batches (9.5 MB): the window's end falls inside one of them; the very last
    // number is a float, a fraction or not
    const pattern = [int(70_000), int(300), int(7), float(2)];
    const perBatch = 1000;
    const batches = 2000;
    const values: number[] = [];
    const parts: number[][] = [[...PROTO, EMPTY_LIST]];
    for (let b = 0; b < batches; b++) {
      const batchValues: number[][] = [];
      for (let i = 0; i < perBatch; i++) {
        const last = b === batches - 1 && i === perBatch - 1;
        const k = i % 4;
        batchValues.push(last ? float(lastValue) : pattern[k]);
        values.push(last ? lastValue : [70_000, 300, 7, 2][k]);
      }
      parts.push(batch(batchValues));
    }
    parts.push([STOP]);
    const bytes = new Uint8Array(parts.flat());
    expect(bytes.length).toBeGreaterThan(8 * 1024 * 1024);
    const { source, value } = read(bytes);
    expect(value).toMatchObject({ $kind: 'lazy-list', length: values.length, elemType });
    expect(readLazyList(source, value as LazyList)).toEqual(values);
  });

  it('a float cut off by the end of the file is a truncation error too', () => {
    const cut = [
      ...PROTO,
      EMPTY_LIST,
      MARK,
      ...Array.from({ length: 100 }, () => float(0.5)).flat(),
    ];
    expect(() => read(cut.slice(0, cut.length - 4))).toThrow(
      expect.objectContaining({ code: 'pickle/truncated' }),
    );
  });

  it('a run cut off by the end of the file is still a truncation error', () => {
    const cut = [
      ...PROTO,
      EMPTY_LIST,
      MARK,
      ...Array.from({ length: 100 }, (_, i) => int(i)).flat(),
    ];
    let caught: unknown = null;
    try {
      read(cut);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(FormatError);
    expect((caught as FormatError).code).toBe('pickle/truncated');
  });
});
