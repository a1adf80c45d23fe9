import type { TraceHost } from '../host/trace-host';
import { cancelRun } from './open-run';
import { runReading, type RunReading } from './run-reading';
import { useRunStore } from './run-store';
import { formatBytesOf } from '../units/byte-size';
import './run.css';

/**
 * In the top bar, each run still opening as one opening item: its files counted inside it, the
 * bytes of them all, and one Cancel for the run (the files in stay). Its files are not opening
 * files of their own: the run tab's strip lists them.
 */
export function RunOpeningItems({ host }: { host: TraceHost }) {
  const runs = useRunStore((s) => s.runs);
  return (
    <>
      {runs.map((run) => {
        const reading = runReading(run);
        if (!reading) return null;
        return (
          <div
            key={run.id}
            className="tab opening run-opening"
            data-testid="run-opening-tab"
            title={`Opening the run ${run.paths.join(', ')}`}
          >
            <span className="tab-format">Run</span>
            <span className="tab-name">{run.title}</span>
            <progress
              max={Math.max(1, reading.bytesTotal)}
              value={reading.bytesRead}
              aria-label={`Reading the run ${run.title}`}
            />
            <span className="tab-progress" data-testid="run-opening-files">
              {describeReading(reading)}
            </span>
            <button
              type="button"
              className="button small"
              data-testid="run-opening-cancel"
              onClick={() => cancelRun(host, run.id)}
            >
              Cancel
            </button>
          </div>
        );
      })}
    </>
  );
}

/** `2 of 6 files in · 45.0 / 130.0 MB` (files unknown until main first answers: `opening`). */
export function describeReading(reading: RunReading): string {
  const bytes =
    reading.bytesTotal > 0 ? ` · ${formatBytesOf(reading.bytesRead, reading.bytesTotal)}` : '';
  const files =
    reading.files === null ? 'opening' : `${reading.filesIn} of ${reading.files} files in`;
  return `${files}${bytes}`;
}
