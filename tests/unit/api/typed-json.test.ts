import { describe, expect, it } from 'vitest';
import { parseTypedJson, typedReplacer, typedReviver } from '../../../src-main/core/api/typed-json';

describe('typed arrays over JSON', () => {
  it('round-trip exactly, inside any object, and stay small', () => {
    const order = {
      rowIds: Int32Array.from([3, 1, -2, 2 ** 31 - 1]),
      startSec: Float64Array.from([0, 1.5, Math.PI, 1760000000.123456]),
      total: 4,
      plain: [1, 2],
    };
    const text = JSON.stringify({ result: order }, typedReplacer);
    const back = JSON.parse(text, typedReviver) as { result: typeof order };
    expect(back.result.rowIds).toBeInstanceOf(Int32Array);
    expect(Array.from(back.result.rowIds)).toEqual(Array.from(order.rowIds));
    expect(Array.from(back.result.startSec)).toEqual(Array.from(order.startSec));
    expect(back.result.plain).toEqual([1, 2]);
    const big = Int32Array.from({ length: 100_000 }, (_, i) => i * 7);
    expect(JSON.stringify(big, typedReplacer).length).toBeLessThan(
      JSON.stringify(Array.from(big)).length,
    );
  });

  it('parse without a reviver when the text holds no typed array, and with it when it does', () => {
    const plain = { result: { series: [1, 2, 3], label: 'ttft' } };
    expect(parseTypedJson(JSON.stringify(plain))).toEqual(plain);
    const typed = parseTypedJson(
      JSON.stringify({ result: Float64Array.from([0.5, 2]) }, typedReplacer),
    ) as {
      result: Float64Array;
    };
    expect(typed.result).toBeInstanceOf(Float64Array);
    expect(Array.from(typed.result)).toEqual([0.5, 2]);
  });
});
