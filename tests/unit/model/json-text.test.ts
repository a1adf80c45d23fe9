import { describe, expect, it } from 'vitest';
import { jsonText } from '../../../src-main/core/model/json-text';

describe('jsonText', () => {
  it('writes ints beyond 2^53 as their exact digits, a JSON number', () => {
    const text = jsonText({ big: 2n ** 70n, list: [1, -(2n ** 64n)], small: 3n });
    expect(text).toBe('{"big":1180591620717411303424,"list":[1,-18446744073709551616],"small":3}');
  });

  it('is JSON.stringify for everything else, spaces too', () => {
    for (const value of [{ a: [1, 'x', null, true] }, 'text', 1.5, [], { '': {} }])
      expect(jsonText(value)).toBe(JSON.stringify(value));
    expect(jsonText({ a: [1] }, 2)).toBe(JSON.stringify({ a: [1] }, null, 2));
    expect(jsonText(undefined)).toBeUndefined();
  });

  it('leaves text that looks like a mark alone: a file cannot forge a number', () => {
    const forged = { s: '\u0000int12345678:5', t: '"\u0000int:9"' };
    expect(jsonText(forged)).toBe(JSON.stringify(forged));
  });
});
