import { describe, expect, it } from 'vitest';
import {
  comparePyStr,
  isContainer,
  round6,
  scalarText,
  toFloat,
  truncate,
  truthy,
} from '../../../src-main/core/rows/python-values';
import type { PyValue } from '../../../src-main/core/model/py-value';

describe("Python's semantics where slime's viewer relies on them", () => {
  it("round6 equals CPython's round(x, 6), ties to even on the exact binary value", () => {
    // [x, round(x, 6)] as printed by CPython 3.11
    const cases: [number, number][] = [
      [5e-7, 0.0],
      [1.5e-6, 2e-6],
      [2.5e-6, 3e-6],
      [1760000000.0000024, 1760000000.000002],
      [0.1234565, 0.123456],
      [2.675, 2.675],
      [1.0000005, 1.000001],
      [-2.5e-6, -3e-6],
      [-1.2345675, -1.234568],
      [5.000000000000001e-7, 1e-6],
      [1760000026.4420846, 1760000026.442085],
      // exact binary ties (k/128): half to even
      [0.0078125, 0.007812],
      [0.0234375, 0.023438],
      [-0.0078125, -0.007812],
      [1760000000.0078125, 1760000000.007812],
      [1760000000.0234375, 1760000000.023438],
      // beyond 2^52 millionths: decided on the exact decimal expansion
      [9876543210.123457, 9876543210.123457],
      [-7777777777.0078125, -7777777777.007812],
      [2251799813.6855626, 2251799813.685563],
      // beyond 2^52 millionths, an exact tie with an odd 6th decimal rounds up (to even)
      [7777777777.0234375, 7777777777.023438],
      // ... and a tail that starts with 5 but is no tie (exactly ...030517578125) rounds up
      [4700000000.0000305, 4700000000.000031],
    ];
    for (const [x, expected] of cases) expect(round6(x), String(x)).toBe(expected);
  });

  it("toFloat accepts what Python's float() accepts", () => {
    expect(toFloat('1.5')).toBe(1.5);
    expect(toFloat(' 2 ')).toBe(2);
    expect(toFloat('1_000.5')).toBe(1000.5);
    expect(toFloat('1e3')).toBe(1000);
    expect(toFloat('+.5')).toBe(0.5);
    expect(toFloat('5.')).toBe(5);
    expect(toFloat('-inf')).toBe(-Infinity);
    expect(toFloat('nan')).toBeNaN();
    expect(toFloat('+NaN')).toBeNaN();
    expect(toFloat('inf')).toBe(Infinity);
    expect(toFloat('+Infinity')).toBe(Infinity);
    expect(toFloat(true)).toBe(1);
    expect(toFloat(false)).toBe(0);
    expect(toFloat(12n)).toBe(12);
    const words = ['infx', 'xinf', 'infinityy', 'nanx', 'xnan', '++inf'];
    for (const bad of ['1__0', '_1', '0x10', '', '1e', 'True', ...words, null, undefined, [1]]) {
      expect(toFloat(bad as never), String(bad)).toBeNull();
    }
  });

  it('truncate cuts at N code points and appends ...<truncated:total>', () => {
    expect(truncate('abc', 3)).toBe('abc');
    expect(truncate('abcd', 3)).toBe('abc...<truncated:4>');
    // len() counts code points: an emoji is one character, not two UTF-16 units
    expect(truncate('😀😀😀😀', 3)).toBe('😀😀😀...<truncated:4>');
  });

  it('truthy follows Python', () => {
    for (const falsy of [null, undefined, false, 0, 0n, '', [], {}, new Uint8Array(0)])
      expect(truthy(falsy as never)).toBe(false);
    for (const yes of [true, 1, -1, 'x', [0], { a: 1 }, new Uint8Array([0])])
      expect(truthy(yes as never)).toBe(true);
  });

  it('comparePyStr orders by code point', () => {
    expect(comparePyStr('a', 'b')).toBeLessThan(0);
    expect(comparePyStr('ab', 'a')).toBeGreaterThan(0);
    expect(comparePyStr('x', 'x')).toBe(0);
    // U+FF21 sorts before U+1F600 by code point, after it by UTF-16 unit
    expect(comparePyStr('\uff21', '😀')).toBeLessThan(0);
    expect('\uff21' < '😀').toBe(false);
  });

  it('comparePyStr: the first differing code point decides, else the shorter string sorts first', () => {
    expect(comparePyStr('ab', 'ac')).toBe(-1);
    expect(comparePyStr('b', 'a')).toBe(1);
    expect(comparePyStr('a', 'ab')).toBeLessThan(0);
    expect(comparePyStr('😀a', '😀b')).toBe(-1); // past an astral character (two UTF-16 units)
    expect(comparePyStr('\uffffa', '\uffffb')).toBe(-1); // U+FFFF is one unit
  });

  it('scalarText is str(x) of a scalar, None for None, and null for a container or nothing', () => {
    expect(scalarText('abc')).toBe('abc');
    expect(scalarText(7)).toBe('7');
    expect(scalarText(null)).toBe('None');
    expect(scalarText(undefined)).toBeNull();
    expect(scalarText({ a: 1 })).toBeNull();
    expect(scalarText([1])).toBeNull();
  });

  it('isContainer: dicts, lists and objects, not scalars or None', () => {
    const containers: PyValue[] = [{}, [], { a: 1 }, new Uint8Array(1)];
    for (const yes of containers) expect(isContainer(yes)).toBe(true);
    for (const no of [null, undefined, 0, 'x', true, 3n]) expect(isContainer(no)).toBe(false);
  });
});
