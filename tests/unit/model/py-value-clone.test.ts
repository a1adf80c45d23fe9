import { describe, expect, it } from 'vitest';
import {
  DICT_PROTO,
  isDict,
  newPyDict,
  pyKind,
  type PyDict,
  type PyValue,
} from '../../../src-main/core/model/py-value';
import { fromCloneable, toCloneable } from '../../../src-main/core/model/py-value-clone';

// Samples a helper thread kept in memory cross to the file's thread by structured cloning,
// which drops a dict's prototype: they must come back as the same PyValues.
const dict = (entries: [string, PyValue][]): PyDict => {
  const d = newPyDict();
  for (const [key, value] of entries) d[key] = value;
  return d;
};
const across = (value: PyValue) => fromCloneable(structuredClone(toCloneable(value)));

describe('PyValues across threads (toCloneable, fromCloneable)', () => {
  it('a sample comes back equal: dicts as dicts, tagged values as they were', () => {
    const sample = dict([
      ['index', 12],
      ['big', 2n ** 70n],
      ['bytes', new Uint8Array([1, 2, 3])],
      [
        'tokens',
        { $kind: 'lazy-list', length: 80, elemType: 'int', byteOffset: 100, byteLength: 400 },
      ],
      ['messages', [dict([['role', 'user']]), dict([['content', 'hi']])]],
      ['labels', { $kind: 'set', frozen: false, items: [dict([['a', 1]]), 'b'] }],
      [
        'obj',
        {
          $kind: 'object',
          module: 'm',
          name: 'C',
          args: [dict([['x', null]])],
          state: dict([['y', true]]),
        },
      ],
    ]);
    const back = across(sample) as PyDict;
    expect(back).toEqual(sample);
    expect(Object.getPrototypeOf(back)).toBe(DICT_PROTO);
    expect(isDict((back.messages as PyValue[])[0])).toBe(true);
    expect(Object.getPrototypeOf((back.labels as { items: PyValue[] }).items[0])).toBe(DICT_PROTO);
    expect(Object.getPrototypeOf((back.obj as { state: PyValue }).state)).toBe(DICT_PROTO);
    expect(back.big).toBe(2n ** 70n);
  });

  it('keys that look like tags or prototypes stay plain keys', () => {
    const sample = dict([
      ['$kind', 'lazy-list'],
      ['__proto__', dict([['polluted', true]])],
      ['constructor', 1],
    ]);
    const back = across(sample) as PyDict;
    expect(isDict(back)).toBe(true);
    expect(pyKind(back)).toBeUndefined();
    expect(Object.getPrototypeOf(back)).toBe(DICT_PROTO);
    expect(Object.keys(back)).toEqual(['$kind', '__proto__', 'constructor']);
    expect(Object.hasOwn(back, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('shared and cyclic containers stay shared', () => {
    const shared = dict([['k', 1]]);
    const list: PyValue[] = [shared, shared];
    list.push(list);
    const back = across(
      dict([
        ['a', list],
        ['b', shared],
      ]),
    ) as PyDict;
    const backList = back.a as PyValue[];
    expect(backList[0]).toBe(backList[1]);
    expect(backList[0]).toBe(back.b);
    expect(backList[2]).toBe(backList);
  });
});
