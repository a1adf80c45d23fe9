import { describe, expect, it } from 'vitest';
import {
  formatBytes,
  formatBytesOf,
  formatMegabytesPerSecond,
  formatProgress,
} from '../../../src-renderer/units/byte-size';

// One convention wherever the app shows a size: decimal units, 1 MB = 1,000,000 bytes (the
// README's figures; `ls -l --si`). The same file read 57.3 "MB" (of 1024²) in the top bar and
// 60 MB in the run's strip before.

describe('byte sizes', () => {
  it('are decimal: a file of 60,000,000 bytes is 60.0 MB, not 57.2', () => {
    expect(formatBytes(60_000_000)).toBe('60.0 MB');
    expect(formatBytes(105_785_927)).toBe('105.8 MB');
    expect(formatBytes(171_707)).toBe('171.7 kB');
    expect(formatBytes(3e9)).toBe('3.0 GB');
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(0)).toBe('0 B');
  });

  it('move up a unit where one decimal would round to 1000', () => {
    expect(formatBytes(999)).toBe('999 B');
    expect(formatBytes(1000)).toBe('1.0 kB');
    expect(formatBytes(999_949)).toBe('999.9 kB');
    expect(formatBytes(999_950)).toBe('1.0 MB');
    expect(formatBytes(999_999_999)).toBe('1.0 GB');
  });

  it('are not made of what is not a size', () => {
    expect(formatBytes(-1)).toBe('—');
    expect(formatBytes(Number.NaN)).toBe('—');
    expect(formatBytes(Number.POSITIVE_INFINITY)).toBe('—');
  });

  it("done of a total read in the total's unit, side by side", () => {
    expect(formatBytesOf(57_300_000, 60_000_000)).toBe('57.3 / 60.0 MB');
    expect(formatBytesOf(400_000, 104_400_000)).toBe('0.4 / 104.4 MB');
    expect(formatBytesOf(0, 28_300)).toBe('0.0 / 28.3 kB');
    expect(formatBytesOf(1_500_000_000, 3e9)).toBe('1.5 / 3.0 GB');
    // the total not known yet: the bytes done alone
    expect(formatBytesOf(45_000_000, 0)).toBe('45.0 MB');
  });

  it('speeds in whole decimal MB per second', () => {
    expect(formatMegabytesPerSecond(600_000_000, 4)).toBe('150 MB/s');
    expect(formatMegabytesPerSecond(1, 0)).toBe('— MB/s');
  });
});

describe('an opening item’s progress', () => {
  it('says the count in the format’s words, and no count when the format names none', () => {
    expect(formatProgress(5_000_000, 10_000_000, 1200, 'spans')).toBe(
      `${formatBytesOf(5_000_000, 10_000_000)} · 1200 spans`,
    );
    expect(formatProgress(5_000_000, 10_000_000, 64, 'samples')).toMatch(/ · 64 samples$/);
    // a Chrome trace counts nothing: "· 0 samples" (or any number of "samples") is not said
    expect(formatProgress(5_000_000, 10_000_000, 0, undefined)).toBe(
      formatBytesOf(5_000_000, 10_000_000),
    );
    expect(formatProgress(5_000_000, 10_000_000, 7, undefined)).not.toMatch(/samples/);
    expect(formatProgress(5_000_000, 10_000_000, 0, 'spans')).not.toMatch(/spans/);
  });
});
