import { describe, expect, it } from 'vitest';
import { shownFigure } from '../../../src-main/core/compare/figure-units';

// A figure's A, B and Δ in one unit per row (issue 48: "0.00000124 → 0.00000329 s" needed 8 decimals).
describe('shownFigure', () => {
  it('times in µs, ms, s or min by the larger side; A, B and Δ share the unit', () => {
    expect(shownFigure({ a: 0.00000124, b: 0.00000329, unit: 's' })).toEqual({
      unit: 'µs',
      a: '1.240',
      b: '3.290',
      delta: '+2.050',
    });
    expect(shownFigure({ a: 0.009769, b: 0.009843, unit: 's' })).toEqual({
      unit: 'ms',
      a: '9.769',
      b: '9.843',
      delta: '+0.074',
    });
    expect(shownFigure({ a: 42.04, b: 58.33, unit: 's' })).toMatchObject({ unit: 's' });
    // an hour moves to minutes; 90 s stays in seconds
    expect(shownFigure({ a: 0, b: 3538.83, unit: 's' })).toEqual({
      unit: 'min',
      a: '0',
      b: '58.98',
      delta: '+58.98',
    });
    expect(shownFigure({ a: 90, b: 30, unit: 's' })).toEqual({
      unit: 's',
      a: '90.00',
      b: '30.00',
      delta: '−60.00',
    });
  });

  it('other units as they are: integers whole, the rest to 4 digits; a missing side as a dash', () => {
    expect(shownFigure({ a: 1487.375, b: 2364, unit: 'tokens' })).toEqual({
      unit: 'tokens',
      a: '1487',
      b: '2364',
      delta: '+877',
    });
    expect(shownFigure({ a: 0.438, b: 0.4288, unit: 'score' })).toEqual({
      unit: 'score',
      a: '0.4380',
      b: '0.4288',
      delta: '−0.0092',
    });
    expect(shownFigure({ a: null, b: 3, unit: 'samples' })).toEqual({
      unit: 'samples',
      a: '–',
      b: '3',
      delta: '–',
    });
  });

  it('a change too small for the sides’ decimals keeps two digits', () => {
    expect(shownFigure({ a: 5.331, b: 5.3312, unit: 'GB/s' }).delta).toBe('+0.00020');
  });
});
