import { expect } from 'vitest';

/**
 * Two figure objects equal key for key, numbers to 1e-9 (JSON and the worker's structured clone
 * may round the last bit differently), everything else exactly.
 */
export function expectClose(actual: unknown, expected: unknown): void {
  if (typeof expected === 'number' && typeof actual === 'number')
    expect(actual).toBeCloseTo(expected, 9);
  else if (expected !== null && typeof expected === 'object') {
    expect(Object.keys(actual as object).sort()).toEqual(Object.keys(expected).sort());
    for (const [key, value] of Object.entries(expected))
      expectClose((actual as Record<string, unknown>)[key], value);
  } else expect(actual).toBe(expected);
}
