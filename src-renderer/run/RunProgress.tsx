import { useEffect, useState } from 'react';
import type { RunResult } from '../../src-main/core/api/trace-api';
import type { TraceHost } from '../host/trace-host';
import { cancelRun } from './open-run';

/**
 * Above a run still opening: how many of its files are in, each pending file's bytes read (its
 * own open's progress events, named by the openId main gave it), and Cancel for the rest.
 */
export function RunProgress({
  host,
  runId,
  result,
}: {
  host: TraceHost;
  runId: string;
  result: RunResult;
}) {
  const [bytesRead, setBytesRead] = useState<Map<string, number>>(new Map());
  useEffect(
    () =>
      host.api.onProgress((progress) => {
        if (!progress.openId.startsWith(`${runId}:`)) return;
        setBytesRead((old) => new Map(old).set(progress.openId, progress.bytesRead));
      }),
    [host, runId],
  );
  const settled = result.files.length + result.errors.length;
  const total = settled + result.pending.length;
  return (
    <div className="run-progress" data-testid="run-progress">
      <span data-testid="run-progress-count">
        {settled} of {total} files in
      </span>
      <ul className="run-progress-files">
        {/* the files being read first; the rest wait for a worker */}
        {[...result.pending]
          .sort((a, b) => Number(bytesRead.has(b.openId)) - Number(bytesRead.has(a.openId)))
          .map((file) => {
            const read = bytesRead.get(file.openId);
            if (read === undefined) {
              return (
                <li key={file.openId} data-testid="run-progress-file" title={file.path}>
                  <span className="run-progress-name">{file.name}</span>
                  <span className="muted">waiting · {(file.bytes / 1e6).toFixed(0)} MB</span>
                </li>
              );
            }
            const percent = file.bytes > 0 ? Math.min(100, (100 * read) / file.bytes) : 0;
            return (
              <li key={file.openId} data-testid="run-progress-file" title={file.path}>
                <span className="run-progress-name">{file.name}</span>
                <span className="run-progress-bar">
                  <span style={{ width: `${percent}%` }} />
                </span>
                <span className="muted">
                  {(read / 1e6).toFixed(0)} / {(file.bytes / 1e6).toFixed(0)} MB
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
