import { describe, expect, it } from 'vitest';
import { pyStr, toAttr } from '../../../src-main/core/rows/row-fields';
import { pyBytesRepr } from '../../../src-main/core/rows/python-values';

// str(x) as Python prints the scalars a sample holds, and pickle values as plain attr values.
describe('pyStr', () => {
  it('prints scalars as Python’s str does', () => {
    expect([
      pyStr('x'),
      pyStr(null),
      pyStr(true),
      pyStr(false),
      pyStr(3),
      pyStr(2.5),
      pyStr(10n),
    ]).toEqual(['x', 'None', 'True', 'False', '3', '2.5', '10']);
  });

  it('anything else as the JSON of its attr value', () => {
    expect(pyStr([1, 'a', null] as never)).toBe('[1,"a",null]');
  });
});

describe('toAttr', () => {
  it('scalars as they are, ints beyond 2^53 exact, bytes as Python writes them, token lists as short tags', () => {
    expect(toAttr(undefined)).toBeNull();
    expect(toAttr(null)).toBeNull();
    expect(toAttr(7n as never)).toBe(7);
    expect(toAttr(-(2n ** 53n) as never)).toBe(-(2n ** 53n));
    expect(toAttr((2n ** 53n - 1n) as never)).toBe(2 ** 53 - 1);
    expect([toAttr(1.5), toAttr('s'), toAttr(false)]).toEqual([1.5, 's', false]);
    // slime's viewer writes str() of bytes (issue 48)
    expect(toAttr(new Uint8Array(2) as never)).toBe(String.raw`b'\x00\x00'`);
    expect(toAttr({ $kind: 'lazy-list', length: 512 } as never)).toBe('<list of 512>');
  });

  it('tensors and arrays by dtype and shape; other objects by module and name', () => {
    expect(toAttr({ $kind: 'tensor', dtype: 'int32', shape: [3, 4] } as never)).toBe(
      '<tensor int32 [3, 4]>',
    );
    expect(toAttr({ $kind: 'ndarray', dtype: 'float32' } as never)).toBe('<ndarray float32 []>');
    expect(toAttr({ $kind: 'object', module: 'slime.utils.types', name: 'Sample' } as never)).toBe(
      '<slime.utils.types.Sample>',
    );
    expect(toAttr({ $kind: 'object' } as never)).toBe('<object.>');
  });

  it('lists and dicts element by element', () => {
    expect(toAttr([1n, null, 'a'] as never)).toEqual([1, null, 'a']);
  });
});

describe('pyBytesRepr', () => {
  const bytes = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));
  it('escapes as Python’s repr of bytes does', () => {
    expect(pyBytesRepr(bytes('\x01xy\xff'))).toBe(String.raw`b'\x01xy\xff'`);
    expect(pyBytesRepr(new Uint8Array())).toBe("b''");
    expect(pyBytesRepr(bytes('a\tb\nc\rd\\e\x7f'))).toBe(String.raw`b'a\tb\nc\rd\\e\x7f'`);
  });
  it('picks double quotes for a single quote alone, escapes it when both are inside', () => {
    expect(pyBytesRepr(bytes("it's"))).toBe(`b"it's"`);
    expect(pyBytesRepr(bytes(`'q"`))).toBe(String.raw`b'\'q"'`);
    expect(pyBytesRepr(bytes('say "hi"'))).toBe(`b'say "hi"'`);
  });
});
