import { describe, expect, it } from 'vitest';
import {
  jsonListAt,
  jsonListLength,
  jsonListReader,
  packJsonList,
} from '../../../src-main/core/api/json-list';
import { decodeAnswer, encodeAnswer } from '../../../src-main/core/api/typed-json';

// A report's rows and details travel packed: each value's JSON, parsed when asked for.
describe('json list', () => {
  const values = [
    { name: 'sglang_generate', startSec: 0.5, items: [1, 2, 3] },
    null,
    'naïve ✓ 😀 "quoted" </script>',
    { id: 2n ** 64n + 1n, nested: [{ big: -(2n ** 70n) }] },
    [],
    { $bigint: 'not digits' },
  ];

  it('gives back each value as it was, multi-byte text and ints beyond 2^53 included', () => {
    const list = packJsonList(values);
    expect(jsonListLength(list)).toBe(values.length);
    expect(values.map((_, i) => jsonListAt(list, i))).toEqual(values);
    expect(() => jsonListAt(list, values.length)).toThrow(RangeError);
  });

  it('crosses a typed frame as two arrays and reads back from its views', () => {
    const { contentType, parts } = encodeAnswer({ list: packJsonList(values) });
    const body = Buffer.concat(parts);
    const { list } = decodeAnswer(contentType, body.buffer.slice(body.byteOffset)) as {
      list: ReturnType<typeof packJsonList<unknown>>;
    };
    expect(list.bytes).toBeInstanceOf(Uint8Array);
    const reader = jsonListReader(list);
    expect(reader.at(3)).toEqual(values[3]);
    // parsed once: the same object on every ask
    expect(reader.at(0)).toBe(reader.at(0));
  });

  it('packs many values past its first buffer', () => {
    const many = Array.from({ length: 5000 }, (_, i) => ({ i, text: 'x'.repeat(i % 97) }));
    const list = packJsonList(many);
    expect(jsonListAt(list, 4999)).toEqual(many[4999]);
    expect(jsonListAt(list, 2500)).toEqual(many[2500]);
  });
});
