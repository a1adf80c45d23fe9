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

/**
 * Compare takes two single files, the shown one and another. A run tab or a trends tab is shown
 * instead of any file: picking a file there would compare a file the user is not looking at, and
 * the compare would not show until that file's tab was picked.
 */
export function compareAvailability(shown: ShownTab): CompareAvailability {
  if (shown.runActive)
    return {
      available: false,
      reason:
        "A run is many files on one clock, not one rollout file. Compare takes two files: pick a file's tab to compare it.",
    };
  if (shown.trendsActive)
    return {
      available: false,
      reason: 'Trends compare their own rollouts: shift+click two dots, then Compare.',
    };
  if (!shown.hasFile) return { available: false, reason: 'Open a file to compare it.' };
  return { available: true };
}

/**
 * Export writes the shown file. A run or trends tab shows no single file: exporting there wrote
 * the file open behind it, which the user was not looking at.
 */
export function exportAvailability(shown: ShownTab): CompareAvailability {
  if (shown.runActive)
    return {
      available: false,
      reason: "A run is many files: pick a file's tab to export that file.",
    };
  if (shown.trendsActive)
    return {
      available: false,
      reason: 'Trends show a run of dumps: click a dot to open that rollout, then export it.',
    };
  if (!shown.hasFile) return { available: false, reason: 'Open a file to export it.' };
  return { available: true };
}
