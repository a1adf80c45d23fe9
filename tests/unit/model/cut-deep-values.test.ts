import { describe, expect, it } from 'vitest';
import {
  cutDeepValues,
  MAX_VALUE_DEPTH,
  TOO_DEEP_NOTE,
} from '../../../src-main/core/model/cut-deep-values';

/** `levels` containers, each the only value of the one above (objects, or arrays). */
function nested(levels: number, kind: 'object' | 'array'): Record<string, unknown> {
  let value: unknown = 'leaf';
  for (let i = 1; i < levels; i++) value = kind === 'object' ? { a: value } : [value];
  return { top: value };
}

describe('cutting values nested too deep', () => {
  it('keeps MAX_VALUE_DEPTH levels and cuts the level below, in objects and arrays', () => {
    for (const kind of ['object', 'array'] as const) {
      const fits = nested(MAX_VALUE_DEPTH, kind);
      const before = JSON.stringify(fits);
      expect(cutDeepValues(fits), kind).toBe(0);
      expect(JSON.stringify(fits)).toBe(before);

      const deep = nested(MAX_VALUE_DEPTH + 1, kind);
      expect(cutDeepValues(deep), kind).toBe(1);
      expect(JSON.stringify(deep)).toContain(JSON.stringify(TOO_DEEP_NOTE));
      expect(JSON.stringify(deep)).not.toContain('leaf');
    }
  });

  it("leaves Kineto's args (shapes, grid, block: arrays two deep) as they are", () => {
    const args = {
      'External id': 7,
      'Input Dims': [[2048, 16], [16, 1024], []],
      'Input type': ['float', 'float', ''],
      grid: [128, 1, 1],
      block: [256, 1, 1],
    };
    const copy = structuredClone(args);
    expect(cutDeepValues(args)).toBe(0);
    expect(args).toEqual(copy);
  });

  it('cuts each too-deep value once, beside values that fit, and a "__proto__" key as a key', () => {
    const args = JSON.parse(
      `{"ok": [1, [2]], "deep": ${JSON.stringify(nested(40, 'array').top)}, "__proto__": ${JSON.stringify(nested(40, 'object').top)}}`,
    ) as Record<string, unknown>;
    expect(cutDeepValues(args)).toBe(2);
    expect(args.ok).toEqual([1, [2]]);
    expect(Object.hasOwn(args, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
  });
});
