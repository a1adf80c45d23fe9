import { describe, expect, it } from 'vitest';
import { validateCall } from '../../../src-main/api/validate-call';
import { BadCallError } from '../../../src-main/core/api/call-errors';

describe('getLazyValues argument checks', () => {
  it('takes a field of the sample, or the keys down to one nested in its dicts', () => {
    for (const field of ['tokens', ['multimodal_train_inputs', 'pixel_values']])
      expect(validateCall('getLazyValues', ['f1', 3, field]).args).toEqual(['f1', 3, field]);
  });

  it('refuses an empty field, an empty or over-long path, and keys that are not text', () => {
    const bad = ['', [], [''], ['a', 7], Array.from({ length: 17 }, () => 'k'), { a: 1 }, 5];
    for (const field of bad)
      expect(() => validateCall('getLazyValues', ['f1', 3, field]), JSON.stringify(field)).toThrow(
        BadCallError,
      );
  });
});
