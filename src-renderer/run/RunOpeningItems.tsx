import type { TraceHost } from '../host/trace-host';
import { cancelRun } from './open-run';
import { runReading, type RunReading } from './run-reading';
import { useRunStore } from './run-store';
import { formatBytesOf } from '../units/byte-size';
import { OpeningItem } from '../widgets/OpeningItem';
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
          <OpeningItem
            key={run.id}
            className="run-opening"
            format="Run"
            name={run.title}
            title={`Opening the run ${run.paths.join(', ')}`}
            bytesRead={reading.bytesRead}
            bytesTotal={reading.bytesTotal}
            progressLabel={`Reading the run ${run.title}`}
            onCancel={() => cancelRun(host, run.id)}
            testIds={{ item: 'run-opening-tab', cancel: 'run-opening-cancel' }}
          >
            <span className="tab-progress" data-testid="run-opening-files">
              {describeReading(reading)}
            </span>
          </OpeningItem>
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
