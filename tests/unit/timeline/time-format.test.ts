import { describe, expect, it } from 'vitest';
import {
  buildTicks,
  decimalsFor,
  formatClock,
  formatDuration,
  formatExactClock,
  labelWidthPx,
  niceStep,
} from '../../../src-renderer/timeline/time-format';

describe('clock format', () => {
  it('writes times from the start as m:ss.d and h:mm:ss.ddd (the forms issue 16 asks for)', () => {
    expect(formatClock(52 * 60 + 50, 1)).toBe('52:50.0');
    expect(formatClock(3600 + 2 * 60 + 13.35, 3)).toBe('1:02:13.350');
    expect(formatClock(59.99996, 4)).toBe('1:00.0000');
    expect(formatClock(-1.5, 1)).toBe('-0:01.5');
    expect(formatClock(5, 0, true)).toBe('0:00:05');
    // the details panel's +59.53 min, exact to the microsecond
    expect(formatExactClock(3571.812345)).toBe('59:31.812345');
  });

  it('steps round to 1-2-5 below a second and to clock steps above', () => {
    expect(niceStep(0.3)).toBe(0.5);
    expect(niceStep(3e-6)).toBe(5e-6);
    expect(niceStep(7)).toBe(10);
    expect(niceStep(40)).toBe(60);
    expect(niceStep(1000)).toBe(1800);
    expect(decimalsFor(0.5)).toBe(1);
    expect(decimalsFor(2e-6)).toBe(6);
    expect(decimalsFor(1e-7)).toBe(7);
  });
});

describe('axis ticks', () => {
  // the zooms of issue 16: a whole ~1 h rollout down to a microsecond, at 1000 px
  const WINDOWS: [number, number][] = [
    [-107, 3677],
    [3570, 3640],
    [3571.5, 3572.5],
    [3571.81, 3571.82],
    [3571.8123, 3571.8124],
    [3571.8123451, 3571.8123461],
  ];
  for (const [start, end] of WINDOWS) {
    it(`labels are distinct, round and fit between ticks over ${end - start} s`, () => {
      const ticks = buildTicks(start, end, 1000);
      expect(ticks.length).toBeGreaterThanOrEqual(3);
      const labels = ticks.map((t) => t.label);
      expect(new Set(labels).size).toBe(labels.length);
      // a 1-2-5 step, read back through the float error of the subtraction
      const step = Number((ticks[1].sec - ticks[0].sec).toPrecision(6));
      for (const tick of ticks) {
        expect(tick.x).toBeGreaterThanOrEqual(0);
        expect(tick.x).toBeLessThanOrEqual(1000);
        // a tick sits on a whole multiple of the step
        expect(Math.abs(tick.sec / step - Math.round(tick.sec / step))).toBeLessThan(1e-6);
      }
      const spacing = ticks[1].x - ticks[0].x;
      expect(spacing).toBeGreaterThan(Math.max(...labels.map(labelWidthPx)));
    });
  }

  it('the whole rollout reads in minutes and seconds; a microsecond window in sub-µs steps', () => {
    expect(
      buildTicks(0, 3600, 1000)
        .map((t) => t.label)
        .slice(0, 3),
    ).toEqual(['0:00:00', '0:05:00', '0:10:00']);
    const micro = buildTicks(3571.812345, 3571.812346, 1000);
    expect(micro[0].label).toMatch(/^59:31\.8123450\d*$/);
  });
});

describe('durations', () => {
  it('pick the unit by size, with the decimals to tell close ones apart', () => {
    expect(formatDuration(7200)).toBe('2.00 h');
    expect(formatDuration(3600)).toBe('1.00 h');
    expect(formatDuration(3599)).toBe('59.98 min');
    expect(formatDuration(60)).toBe('1.00 min');
    expect(formatDuration(59.5)).toBe('59.5 s');
    expect(formatDuration(10)).toBe('10.0 s');
    expect(formatDuration(9.996)).toBe('10.00 s');
    expect(formatDuration(1)).toBe('1.00 s');
    expect(formatDuration(0.5)).toBe('500.0 ms');
    expect(formatDuration(0.01)).toBe('10.0 ms');
    expect(formatDuration(0.005)).toBe('5.00 ms');
    expect(formatDuration(0.001)).toBe('1.00 ms');
    expect(formatDuration(0.000999)).toBe('999 µs');
    expect(formatDuration(-90)).toBe('-1.50 min');
    expect(formatDuration(-0.002)).toBe('-2.00 ms');
  });
});
