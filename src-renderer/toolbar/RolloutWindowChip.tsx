import type { FileSummary } from '../../src-main/core/api/trace-api';
import { useViewStore } from '../state/view-store';
import { fitWindow } from '../timeline/time-window';
import { formatDuration } from '../timeline/time-format';

/**
 * (ours) Which time window the timeline shows, when a rollout resumed samples of an earlier
 * one: this rollout's own by default, the whole file (earlier attempts included) one click away.
 */
export function RolloutWindowChip({ file }: { file: FileSummary }) {
  const stored = useViewStore((s) => s.windows[file.fileId]);
  const setWindow = useViewStore((s) => s.setWindow);
  const own = file.rolloutWindow;
  if (!own || file.globalStartSec === null || file.globalEndSec === null) return null;
  const wholeSec = file.globalEndSec - file.globalStartSec;
  const showingWhole = stored !== undefined && stored.startSec < own.ownStartSec - 1e-9;
  return (
    <span className="rollout-window-chip" data-testid="rollout-window" title={own.label}>
      {showingWhole ? 'Whole file, earlier attempts included' : "This rollout's own window"} (
      {formatDuration(showingWhole ? wholeSec : own.ownEndSec - own.ownStartSec)})
      <button
        type="button"
        className="button small"
        data-testid="rollout-window-toggle"
        onClick={() => setWindow(file.fileId, showingWhole ? null : fitWindow(0, wholeSec))}
      >
        {showingWhole ? "Show this rollout's own window" : 'Show earlier attempts'}
      </button>
    </span>
  );
}
