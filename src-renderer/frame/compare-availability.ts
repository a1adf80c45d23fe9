/** What a top-bar action on the shown file may do in the tab shown, and why not when it may not. */
export type CompareAvailability = { available: true } | { available: false; reason: string };

export interface ShownTab {
  /** a file is open and active (its page, or its compare, shows when no workspace tab does) */
  hasFile: boolean;
  /** a run tab is shown */
  runActive: boolean;
  /** a trends tab is shown */
  trendsActive: boolean;
}

/** Why an action on the shown file is not offered: in a run tab, a trends tab, or no file. */
interface NotOffered {
  run: string;
  trends: string;
  noFile: string;
}

/**
 * The one rule of both actions on the shown file: a run tab or a trends tab is shown instead of
 * any file, so acting there would act on a file the user is not looking at.
 */
function availability(shown: ShownTab, why: NotOffered): CompareAvailability {
  if (shown.runActive) return { available: false, reason: why.run };
  if (shown.trendsActive) return { available: false, reason: why.trends };
  if (!shown.hasFile) return { available: false, reason: why.noFile };
  return { available: true };
}

/**
 * Compare takes two single files, the shown one and another: picked under a run or trends tab,
 * the compare would not show until that file's tab was picked.
 */
export function compareAvailability(shown: ShownTab): CompareAvailability {
  return availability(shown, {
    run: "A run is many files on one clock, not one rollout file. Compare takes two files: pick a file's tab to compare it.",
    trends: 'Trends compare their own rollouts: shift+click two dots, then Compare.',
    noFile: 'Open a file to compare it.',
  });
}

/** Export writes the shown file: under a run or trends tab it wrote the file open behind it. */
export function exportAvailability(shown: ShownTab): CompareAvailability {
  return availability(shown, {
    run: "A run is many files: pick a file's tab to export that file.",
    trends: 'Trends show a run of dumps: click a dot to open that rollout, then export it.',
    noFile: 'Open a file to export it.',
  });
}

/**
 * Share makes the report of what is shown: the file, its compare, or under a run tab the run
 * (its files and run tab, as `trace-explorer report RUN_FOLDER`), once every file is in.
 */
export function shareAvailability(shown: ShownTab & { runComplete: boolean }): CompareAvailability {
  if (shown.runActive && !shown.runComplete)
    return {
      available: false,
      reason: 'The run is still being read: share it once every file is in.',
    };
  if (shown.runActive) return { available: true };
  return availability(shown, {
    run: '',
    trends: 'Trends show a run of dumps: click a dot to open that rollout, then share it.',
    noFile: 'Open a file or a run to share it.',
  });
}
