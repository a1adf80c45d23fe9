import type { FileSummary, RunResult } from '../core/api/trace-api';
import { compareExtraOf, type CompareExtra } from '../core/compare/run-extra-figures';

/**
 * Finished runs kept beyond their files' closing at most: a page asks for a run only after a
 * break in its event stream, and a run's state holds its joins (a sample's worth each).
 */
export const KEPT_FINISHED_RUNS = 8;

/**
 * The latest state of each run main opened (what its last 'run-updated' said), for a page whose
 * event stream broke meanwhile (`runNow`): serve mode's events are not replayed, and a run's
 * last states come only as events. A run is forgotten when one of its files is closed (the page
 * closes a run tab's files together), and the oldest finished ones beyond KEPT_FINISHED_RUNS.
 */
export class RunStates {
  private readonly latest = new Map<string, RunResult>();

  note(openId: string, result: RunResult): void {
    // the most recent last: the oldest finished runs are the first ones forgotten
    this.latest.delete(openId);
    this.latest.set(openId, result);
    let finished = [...this.latest].filter(([, state]) => state.complete);
    while (finished.length > KEPT_FINISHED_RUNS) {
      this.latest.delete(finished[0][0]);
      finished = finished.slice(1);
    }
  }

  get(openId: string): RunResult | null {
    return this.latest.get(openId) ?? null;
  }

  /**
   * What the latest run holding `file` (or the same file on disk) says of it beyond its dump
   * (train dump, request metrics), for compare; null when no run kept here has such figures.
   */
  compareExtra(file: Pick<FileSummary, 'fileId' | 'path'>): CompareExtra | null {
    for (const state of [...this.latest.values()].reverse()) {
      const extra = compareExtraOf(state, file);
      if (extra !== null) return extra;
    }
    return null;
  }

  /** A file closed: the runs it is a file of are being closed (or are no longer whole). */
  forgetFile(fileId: string): void {
    for (const [openId, state] of this.latest) {
      if (state.files.some(({ file }) => file.fileId === fileId)) this.latest.delete(openId);
    }
  }
}
