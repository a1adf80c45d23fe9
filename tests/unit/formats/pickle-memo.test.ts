import { describe, expect, it } from 'vitest';
import { bytesSource, type ByteSource } from '../../../src-main/core/bytes/byte-source';
import { PickleCursor } from '../../../src-main/core/formats/pickle/pickle-cursor';
import { FORGOTTEN, PickleMemo } from '../../../src-main/core/formats/pickle/pickle-memo';
import { readPickle } from '../../../src-main/core/formats/pickle/read-pickle';
import { PickleWriter } from '../hostile/pickle-writer';

// The memo holds every value a CPython pickle writes. Once a reader lets finished containers
// go, segments behind the reading point keep a string as the offset of the opcode it came
// from and decode it again when the pickle reads it back.

describe('the memo, slot by slot', () => {
  /** a memo whose strings are `s<offset>`, counting how often one is decoded again */
  function memoOfStrings() {
    const decoded: number[] = [];
    const memo = new PickleMemo<unknown>((at) => {
      decoded.push(at);
      return `s${at}`;
    }, 1 << 20);
    return { memo, decoded };
  }
  const finished = (slot: unknown) => typeof slot === 'object' && slot !== null;

  it('settled strings are decoded again once, then found; containers let go; empty slots stay empty', () => {
    const { memo, decoded } = memoOfStrings();
    const slots = 40_000;
    for (let i = 0; i < slots; i++) {
      if (i % 3 === 0) memo.put(i, `s${i * 10}`, i * 10);
      else if (i % 3 === 1) memo.put(i, { i }, -1);
      // every third slot is left unwritten
    }
    memo.put(slots - 1, 'last', -1);
    let letGo = 0;
    memo.forgetFinished(0, finished, () => letGo++);
    expect(letGo).toBe(Math.ceil((slots - 1) / 3));
    // 13,334 strings (the last one written twice) and 13,333 containers
    expect(memo.size).toBe(13_334 + 13_333);
    expect(memo.length).toBe(slots);
    for (const i of [0, 3, 30_000, 3]) expect(memo.get(i)).toBe(`s${i * 10}`);
    // slot 3 read twice: decoded once (the first two segments are settled, the third is live)
    expect(decoded).toEqual([0, 30, 300_000]);
    expect(memo.get(1)).toBe(FORGOTTEN);
    expect(memo.get(2)).toBeUndefined();
    expect(memo.get(slots - 1)).toBe('last');
    expect(memo.get(10_000_000)).toBeUndefined();
  });

  it('a settled string read back is decoded once, even alternating with one that shares its cache entry', () => {
    const { memo, decoded } = memoOfStrings();
    for (let i = 0; i < 40_000; i++) memo.put(i, `s${i}`, i);
    memo.forgetFinished(0, finished, () => {});
    // slots 5 and 5 + 4096 fall on one entry of the small cache of strings read back
    for (let k = 0; k < 100; k++) {
      expect(memo.get(5)).toBe('s5');
      expect(memo.get(5 + 4096)).toBe(`s${5 + 4096}`);
    }
    expect(decoded).toEqual([5, 5 + 4096]);
  });

  it('slots a skipped item wrote: its strings decoded only when read back, the rest let go, live or settled', () => {
    const { memo, decoded } = memoOfStrings();
    // live segment: a string walked past (at offset 700) and a container walked past
    memo.putUnread(0, 700);
    memo.putUnread(1, -1);
    expect(memo.size).toBe(2);
    expect(decoded).toEqual([]);
    // settle the first segment (the highest slot written lies past it), walked-past slots too
    memo.putUnread(20_000, 900);
    memo.putUnread(2, 800);
    memo.forgetFinished(0, finished, () => {});
    // written again after it settled: one walked-past string, one walked-past value
    memo.putUnread(3, 1000);
    memo.putUnread(4, -1);
    memo.put(5, 'read', -1);
    memo.putUnread(5, 1100);
    expect(memo.size).toBe(7);
    expect(memo.get(0)).toBe('s700');
    expect(memo.get(2)).toBe('s800');
    expect(memo.get(3)).toBe('s1000');
    expect(memo.get(5)).toBe('s1100');
    expect(memo.get(20_000)).toBe('s900');
    expect(memo.get(20_000)).toBe('s900');
    expect(memo.get(1)).toBe(FORGOTTEN);
    expect(memo.get(4)).toBe(FORGOTTEN);
    // each decoded once, when first read back
    expect(decoded).toEqual([700, 800, 1000, 1100, 900]);
  });

  it('a slot written again after it settled reads the new value; MEMOIZE counts it once', () => {
    const { memo } = memoOfStrings();
    for (let i = 0; i < 40_000; i++) memo.put(i, `s${i}`, i);
    memo.forgetFinished(0, finished, () => {});
    expect(memo.get(7)).toBe('s7');
    const size = memo.size;
    memo.put(7, { changed: true }, -1);
    expect(memo.get(7)).toEqual({ changed: true });
    memo.put(7, 'again', 123);
    expect(memo.get(7)).toBe('s123');
    // a string not read from an opcode of its own (a PUT of a value read back) stays as it is
    memo.put(8, 'kept as is', -1);
    expect(memo.get(8)).toBe('kept as is');
    expect(memo.size).toBe(size);
  });

  it('containers still on the stack are kept when their segment settles', () => {
    const { memo } = memoOfStrings();
    const open = { still: 'being read' };
    memo.put(5, open, -1);
    for (let i = 6; i < 40_000; i++) memo.put(i, [i], -1);
    memo.forgetFinished(
      0,
      (slot) => finished(slot) && slot !== open,
      () => {},
    );
    expect(memo.get(5)).toBe(open);
    expect(memo.get(6)).toBe(FORGOTTEN);
  });

  it('slots written far apart (a hostile pickle) keep their values', () => {
    const { memo } = memoOfStrings();
    for (let i = 0; i < 50; i++) memo.put(i * 1_000_000, `s${i}`, i);
    memo.forgetFinished(0, finished, () => {});
    for (let i = 0; i < 50; i++) expect(memo.get(i * 1_000_000)).toMatch(/^s\d+$/);
    expect(memo.size).toBe(50);
  });
});

describe("the memo's memory", () => {
  const SEGMENT = 1 << 14;
  const taken = () => {
    const m = process.memoryUsage();
    return m.heapUsed + m.external + m.arrayBuffers;
  };

  it('slots written a segment apart (a hostile pickle) take memory by the slots written, not by the segments they span', () => {
    const memo = new PickleMemo<unknown>((at) => `s${at}`, 1 << 30);
    const before = taken();
    // 2000 slots, each the only one of its segment: a dense segment each would be 0.5 GB
    for (let s = 0; s < 2000; s++) memo.put(s * SEGMENT + 7, `v${s}`, -1);
    memo.forgetFinished(
      0,
      (slot) => typeof slot === 'object',
      () => {},
    );
    expect(taken() - before).toBeLessThan(32 * 1024 * 1024);
    expect(memo.get(1999 * SEGMENT + 7)).toBe('v1999');
    expect(memo.size).toBe(2000);
  });

  it('a pickle writing in order reads back what it wrote through segments settled and reused', () => {
    const memo = new PickleMemo<unknown>((at) => `s${at}`, 1 << 30);
    const total = SEGMENT * 12 + 5;
    for (let i = 0; i < total; i++) {
      memo.put(i, i % 2 === 0 ? `t${i}` : { i }, i % 2 === 0 ? i * 4 : -1);
      // settle as a reader does, every few thousand slots
      if (i % 5000 === 4999)
        memo.forgetFinished(
          0,
          (slot) => typeof slot === 'object',
          () => {},
        );
    }
    // settled strings come back from their offsets, containers are let go, the live end is as written
    expect(memo.get(2)).toBe('s8');
    expect(memo.get(3)).toBe(FORGOTTEN);
    expect(memo.get(SEGMENT * 5 + 2)).toBe(`s${(SEGMENT * 5 + 2) * 4}`);
    expect(memo.get(total - 1)).toBe(`t${total - 1}`);
    expect(memo.get(total - 2)).toEqual({ i: total - 2 });
    // a segment taken from the pool holds nothing of the one before it
    expect(memo.get(total)).toBeUndefined();
    expect(memo.size).toBe(total);
  });
});

describe('memo slots a pickle names', () => {
  const text = (t: string) => [...new TextEncoder().encode(t)];
  const read = (ops: number[]) =>
    readPickle(new PickleCursor(bytesSource('p.pkl', new Uint8Array(ops)), 0, 0)).value;

  it('a PUT or GET of a negative, fractional or unreadable slot is a coded error', () => {
    for (const slot of ['-1', '1.5', 'x'])
      for (const ops of [
        [0x80, 2, 0x4e, 0x70, ...text(`${slot}\n`), 0x2e],
        [0x80, 2, 0x4e, 0x70, ...text('0\n'), 0x30, 0x67, ...text(`${slot}\n`), 0x2e],
      ]) {
        let code = '';
        try {
          read(ops);
        } catch (error) {
          code = (error as { code?: string }).code ?? '';
        }
        expect(code).toBe('pickle/bad-memo');
      }
    // text slots that are whole numbers read back
    expect(read([0x80, 2, 0x4e, 0x70, ...text('3\n'), 0x30, 0x67, ...text('3\n'), 0x2e])).toBe(
      null,
    );
  });
});

describe('a pickle read letting finished values go', () => {
  const SHORT_BINUNICODE = 0x8c;
  const BINUNICODE8 = 0x8d;
  const shortStr = (w: PickleWriter, text: string) => {
    const bytes = new TextEncoder().encode(text);
    return w.op(SHORT_BINUNICODE, bytes.length, ...bytes);
  };
  const str8 = (w: PickleWriter, text: string) => {
    const bytes = new TextEncoder().encode(text);
    return w.op(BINUNICODE8, bytes.length, 0, 0, 0, 0, 0, 0, 0, ...bytes);
  };

  /**
   * [{'k': i, 'name': <the first dict's name>, 'note': 'ü…', 'big': ...}, ...] written as
   * CPython does (every dict and string memoized, keys and the shared name read back by
   * BINGET), in the three string opcodes, with 9 MB in the first dict so that what the last
   * dicts read back lies outside the reader's 8 MiB window.
   */
  function dicts(count: number) {
    const w = new PickleWriter().op(0x80, 4);
    let memo = 0;
    const put = () => (w.memoize(), memo++);
    const slots = new Map<string, number>();
    const memoized = (label: string, write: () => void) => {
      const known = slots.get(label);
      if (known !== undefined) return w.get(known);
      write();
      slots.set(label, put());
      return w;
    };
    w.op(0x5d);
    put();
    for (let i = 0; i < count; i++) {
      if (i % 1000 === 0) w.op(0x28);
      w.op(0x7d);
      put();
      w.op(0x28);
      memoized('k', () => shortStr(w, 'k'));
      w.int(i);
      memoized('name', () => str8(w, 'name'));
      memoized('the name', () => w.str('generate_and_rm ✓'));
      memoized('note', () => shortStr(w, 'note'));
      shortStr(w, `ü${i}`);
      put();
      if (i === 0) {
        memoized('big', () => w.str('big'));
        w.str('x'.repeat(9 << 20));
        put();
      }
      w.op(0x75);
      if (i % 1000 === 999 || i === count - 1) w.op(0x65);
    }
    return w.stop().bytes();
  }

  /** a source that says how many bytes were read past the reader's first window */
  function countingSource(bytes: Uint8Array): { source: ByteSource; reads: number[] } {
    const plain = bytesSource('dicts.pkl', bytes);
    const reads: number[] = [];
    return {
      reads,
      source: {
        ...plain,
        read: (offset, length) => (reads.push(offset), plain.read(offset, length)),
      },
    };
  }

  it('reads every value back as a plain read does, strings of settled slots decoded from the file again', () => {
    const bytes = dicts(40_000);
    const { source, reads } = countingSource(bytes);
    const forgetting = readPickle(new PickleCursor(source, 0, 0), {
      onAppend: (_list, _depth, forgetFinished) => forgetFinished(),
    }).value as Record<string, unknown>[];
    const plain = readPickle(new PickleCursor(bytesSource('dicts.pkl', bytes), 0, 0))
      .value as Record<string, unknown>[];
    expect(forgetting).toHaveLength(40_000);
    expect(JSON.stringify(forgetting)).toBe(JSON.stringify(plain));
    expect(forgetting[39_999]).toEqual({ k: 39_999, name: 'generate_and_rm ✓', note: 'ü39999' });
    // the keys of the first dict, at the file's start, were read again from the source (the
    // first read there is the reader's first window)
    expect(reads.filter((offset) => offset < 64).length).toBeGreaterThan(1);
  });
});
