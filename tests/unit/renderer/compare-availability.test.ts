import { describe, expect, it } from 'vitest';
import {
  compareAvailability,
  exportAvailability,
  shareAvailability,
} from '../../../src-renderer/frame/compare-availability';

// "Compare with ▾" compares the shown file with another. A run or trends tab is shown instead of
// any file: there it is disabled, its tooltip saying why (it compared the hidden file before).

describe('"Compare with" in the top bar', () => {
  it("is offered on a file's page", () => {
    expect(compareAvailability({ hasFile: true, runActive: false, trendsActive: false })).toEqual({
      available: true,
    });
  });

  it('is not on a run tab, even with a file open behind it, and says why', () => {
    const onRun = compareAvailability({ hasFile: true, runActive: true, trendsActive: false });
    expect(onRun.available).toBe(false);
    expect(!onRun.available && onRun.reason).toMatch(/^A run is many files on one clock/);
    expect(compareAvailability({ hasFile: false, runActive: true, trendsActive: false })).toEqual(
      onRun,
    );
  });

  it('is not on a trends tab (trends compare their own dots), nor with no file open', () => {
    const onTrends = compareAvailability({ hasFile: true, runActive: false, trendsActive: true });
    expect(!onTrends.available && onTrends.reason).toMatch(/shift\+click two dots/);
    const none = compareAvailability({ hasFile: false, runActive: false, trendsActive: false });
    expect(!none.available && none.reason).toBe('Open a file to compare it.');
  });
});

describe('"Export" in the top bar and the menu', () => {
  it("exports the file shown: on a file's page only", () => {
    const file = { hasFile: true, runActive: false, trendsActive: false };
    expect(exportAvailability(file)).toEqual({ available: true });
    const onRun = exportAvailability({ ...file, runActive: true });
    expect(!onRun.available && onRun.reason).toMatch(/^A run is many files/);
    const onTrends = exportAvailability({ ...file, trendsActive: true });
    expect(!onTrends.available && onTrends.reason).toMatch(/click a dot/);
    const none = exportAvailability({ ...file, hasFile: false });
    expect(!none.available && none.reason).toBe('Open a file to export it.');
  });
});

describe('"Share" in the top bar and the menu', () => {
  it('shares the file shown, or the run tab shown once every file of it is in', () => {
    const file = { hasFile: true, runActive: false, trendsActive: false, runComplete: false };
    expect(shareAvailability(file)).toEqual({ available: true });
    // a run tab is shared as the run (its report), with or without a file open behind it
    const run = { ...file, hasFile: false, runActive: true, runComplete: true };
    expect(shareAvailability(run)).toEqual({ available: true });
    const reading = shareAvailability({ ...run, runComplete: false });
    expect(!reading.available && reading.reason).toMatch(/still being read/);
    const onTrends = shareAvailability({ ...file, trendsActive: true });
    expect(!onTrends.available && onTrends.reason).toMatch(/click a dot/);
    const none = shareAvailability({ ...file, hasFile: false });
    expect(!none.available && none.reason).toBe('Open a file or a run to share it.');
  });
});
