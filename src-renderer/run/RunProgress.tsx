import type { TraceHost } from '../host/trace-host';
import { cancelRun } from './open-run';
import { runReading } from './run-reading';
import { useRunStore } from './run-store';
import { formatBytes, formatBytesOf } from '../units/byte-size';

/**
 * Above a run still opening: how many of its files are in, each pending file's bytes read (its
 * own open's progress events, kept with the run: run-store's `reading`), and Cancel for the rest.
 */
export function RunProgress({ host, runId }: { host: TraceHost; runId: string }) {
  const run = useRunStore((s) => s.runs.find((r) => r.id === runId));
  const reading = run ? runReading(run) : null;
  if (!reading) return null;
  return (
    <div className="run-progress" data-testid="run-progress">
      <span data-testid="run-progress-count">
        {reading.filesIn} of {reading.files ?? '?'} files in
      </span>
      <ul className="run-progress-files">
        {/* the files being read first; the rest wait for a worker */}
        {reading.pending.map(({ file, reading: read }) => {
          if (read === null) {
            return (
              <li key={file.openId} data-testid="run-progress-file" title={file.path}>
                <span className="run-progress-name">{file.name}</span>
                <span className="muted">waiting · {formatBytes(file.bytes)}</span>
              </li>
            );
          }
          const percent = file.bytes > 0 ? Math.min(100, (100 * read.bytesRead) / file.bytes) : 0;
          return (
            <li key={file.openId} data-testid="run-progress-file" title={file.path}>
              <span className="run-progress-name">{file.name}</span>
              <span className="run-progress-bar">
                <span style={{ width: `${percent}%` }} />
              </span>
              <span className="muted" data-testid="run-progress-bytes">
                {formatBytesOf(read.bytesRead, file.bytes)}
              </span>
            </li>
          );
        })}
      </ul>
      <button type="button" data-testid="run-cancel" onClick={() => cancelRun(host, runId)}>
        Cancel
      </button>
    </div>
  );
}
