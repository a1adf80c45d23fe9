import { describe, expect, it } from 'vitest';
import { bytesSource } from '../../../src-main/core/bytes/byte-source';
import { PickleCursor } from '../../../src-main/core/formats/pickle/pickle-cursor';
import { readPickle } from '../../../src-main/core/formats/pickle/read-pickle';
import type { PyValue } from '../../../src-main/core/model/py-value';
import { OP, int, key } from '../../support/pickle-opcodes';

// Once a reader knows the samples list (onAppend answered true), each dict of its later
// batches goes to onListItem as soon as the next item of the batch starts (the batch's last
// at its APPENDS), before the batch is appended, and the value returned takes its place (a sample is used and let go while it
// is young). These pickles are written opcode by opcode.

const PROTO4 = [0x80, 4];
const { EMPTY_LIST, EMPTY_DICT, MARK, APPENDS, SETITEM, POP, STOP, SETITEMS } = OP;
/** {'i': i, 'sub': {'x': i}} as CPython writes a dict of two keys (MARK ... SETITEMS) */
const dict = (i: number) => [
  EMPTY_DICT,
  MARK,
  ...key('i'),
  ...int(i),
  ...key('sub'),
  EMPTY_DICT,
  ...key('x'),
  ...int(i),
  SETITEM,
  SETITEMS,
];
/** {'only': {'x': i}}: a dict of one key, which CPython writes without a mark (SETITEM) */
const oneKey = (i: number) => [
  EMPTY_DICT,
  ...key('only'),
  EMPTY_DICT,
  ...key('x'),
  ...int(i),
  SETITEM,
  SETITEM,
];
const batch = (items: number[][]) => [MARK, ...items.flat(), APPENDS];

/** as JSON sees it: without the depth the reader keeps on containers under a symbol */
const plain = (v: unknown) => JSON.parse(JSON.stringify(v)) as unknown;

interface Seen {
  index: number;
  item: PyValue;
  listLength: number;
}

function read(
  bytes: number[],
  watch: boolean | ((list: PyValue[]) => boolean),
  firstBatchEarly?: number,
) {
  const seen: Seen[] = [];
  const appended: number[] = [];
  const source = bytesSource('list.pkl', new Uint8Array([...PROTO4, ...bytes, STOP]));
  const { value } = readPickle(new PickleCursor(source, 0, 0), {
    firstBatchEarly,
    onAppend: (list) => {
      appended.push(list.length);
      return typeof watch === 'function' ? watch(list) : watch;
    },
    onListItem: (list, index, item) => {
      seen.push({ index, item: plain(item) as PyValue, listLength: list.length });
      return { kept: index };
    },
  });
  return { value: plain(value) as PyValue[], seen, appended };
}

describe('the items of a watched list, as each is complete', () => {
  const pickle = [
    EMPTY_LIST,
    ...batch([dict(0), dict(1)]),
    // 7 is no dict: never given, and the dict before it waits for the append (only a new
    // dict says the one below it is complete)
    ...batch([dict(2), int(7), dict(3), dict(4)]),
    ...batch([dict(5), dict(6)]),
  ];

  it('gives each dict of the batches after the first, in order, with its index', () => {
    const { value, seen } = read(pickle, true);
    // 2 waits for the append (7 after it is no dict), and is not the batch's last: not given
    expect(seen.map((s) => s.index)).toEqual([4, 5, 6, 7]);
    expect(seen.map((s) => s.item)).toEqual([
      { i: 3, sub: { x: 3 } },
      { i: 4, sub: { x: 4 } },
      { i: 5, sub: { x: 5 } },
      { i: 6, sub: { x: 6 } },
    ]);
    // given while its batch was still on the stack: the list held the earlier batches only
    expect(seen.map((s) => s.listLength)).toEqual([2, 2, 6, 6]);
    // the values returned took their places; the rest are as read
    expect(value).toEqual([
      { i: 0, sub: { x: 0 } },
      { i: 1, sub: { x: 1 } },
      { i: 2, sub: { x: 2 } },
      7,
      { kept: 4 },
      { kept: 5 },
      { kept: 6 },
      { kept: 7 },
    ]);
  });

  it('a dict whose next item starts, is dropped and starts again is given once', () => {
    const { value, seen } = read(
      [EMPTY_LIST, ...batch([dict(0)]), MARK, ...dict(1), ...int(9), POP, ...dict(2), APPENDS],
      true,
    );
    expect(seen.map((s) => s.index)).toEqual([1, 2]);
    expect(value).toEqual([{ i: 0, sub: { x: 0 } }, { kept: 1 }, { kept: 2 }]);
  });

  it('never gives a dict before it is complete: one-key dicts (SETITEM) wait for their append', () => {
    const shapes = [
      EMPTY_LIST,
      ...batch([dict(0)]),
      ...batch([oneKey(1), dict(2), oneKey(3), oneKey(4), dict(5), dict(6), dict(7), dict(8)]),
    ];
    const whole = read(shapes, false).value;
    const { value, seen } = read(shapes, true);
    expect(seen.length).toBeGreaterThan(0);
    // what each hook saw is the item as the whole pickle reads it
    for (const s of seen) expect(s.item).toEqual(whole[s.index]);
    // and every item not given is as read
    value.forEach((v, i) => {
      if (!seen.some((s) => s.index === i)) expect(v).toEqual(whole[i]);
    });
  });

  it('a list onAppend does not ask for is never watched', () => {
    expect(read(pickle, false).seen).toEqual([]);
  });
});

// The first batch's first dicts are appended before its APPENDS (firstBatchEarly): the reader
// knows the list after a few samples instead of a thousand, and sees the rest as they complete.
describe('a first batch appended early', () => {
  const pickle = [EMPTY_LIST, ...batch([0, 1, 2, 3, 4].map(dict)), ...batch([dict(5), dict(6)])];

  it('appends the first dicts once that many are complete, then gives each later one', () => {
    const { value, seen, appended } = read(pickle, true, 2);
    // two appended when the third starts; the batch's APPENDS the rest, then the next batch
    expect(appended).toEqual([2, 5, 7]);
    expect(seen.map((s) => s.index)).toEqual([2, 3, 4, 5, 6]);
    expect(seen.map((s) => s.listLength)).toEqual([2, 2, 2, 5, 5]);
    const whole = read(pickle, false).value;
    expect(value.slice(0, 2)).toEqual(whole.slice(0, 2));
    expect(value.slice(2)).toEqual([2, 3, 4, 5, 6].map((kept) => ({ kept })));
  });

  it('leaves the list as a whole read gives it when nobody watches', () => {
    const early = read(pickle, false, 2);
    expect(early.appended).toEqual([2, 5, 7]);
    expect(early.value).toEqual(read(pickle, false, 0).value);
    expect(early.value.map((d) => (d as { i: number }).i)).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it('waits for the batch’s end when an item below the count is no dict', () => {
    const mixed = [EMPTY_LIST, ...batch([dict(0), int(7), dict(1), dict(2)])];
    const { value, appended } = read(mixed, true, 2);
    expect(appended).toEqual([4]);
    expect(value).toEqual(read(mixed, false, 0).value);
  });

  it('leaves a list inside an item of another list’s batch to its APPENDS', () => {
    // {'i': 0, 'msgs': [{'x': 0}, {'x': 1}, {'x': 2}]} then {'i': 1, ...}: a sample's messages
    const withList = (i: number) => [
      EMPTY_DICT,
      MARK,
      ...key('i'),
      ...int(i),
      ...key('msgs'),
      EMPTY_LIST,
      ...batch([0, 1, 2].map((x) => [EMPTY_DICT, ...key('x'), ...int(x), SETITEM])),
      SETITEMS,
    ];
    const nested = [EMPTY_LIST, ...batch([withList(0), withList(1), withList(2)])];
    // the reader watches the outer list (slime's picks the shallowest list of dicts)
    const outer = (list: PyValue[]) => 'msgs' in (list[0] as Record<string, PyValue>);
    const { value, appended, seen } = read(nested, outer, 2);
    // the messages lists at their APPENDS (3 each); the outer list early (when its third item
    // starts), then at its end
    expect(appended).toEqual([3, 3, 2, 3, 3]);
    const whole = read(nested, false, 0).value;
    // every message as read: the first picked list was a messages list, whose later items were
    // never given; the outer list's items from the third on were
    expect(value.slice(0, 2)).toEqual(whole.slice(0, 2));
    expect(seen.map((s) => s.index)).toEqual([2]);
  });

  it('is off by default for a batch shorter than 64', () => {
    expect(read(pickle, true).appended).toEqual([5, 7]);
  });
});
