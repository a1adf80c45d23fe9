import type { ReportSnapshot } from '../../src-main/core/api/report-snapshot';
import { formatBytes } from '../units/byte-size';
import { formatDuration } from '../timeline/time-format';
import './report.css';

/**
 * What a shared report is, above the app it freezes: its files with format and size, the
 * window the figures use, when it was made and whether prompts and responses are in it.
 */
export function ReportHeader({ snapshot }: { snapshot: ReportSnapshot }) {
  return (
    <header className="report-header" data-testid="report-header">
      <strong>Shared report</strong>
      <span className="muted">
        made {snapshot.madeAt.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')}
      </span>
      {snapshot.run ? (
        // a run's files (often many) folded under its name, so the header keeps one line
        <details className="report-run" data-testid="report-run">
          <summary>
            run {snapshot.run.name}: {snapshot.files.length} files joined
          </summary>
          {snapshot.files.map(({ summary }) => (
            <div key={summary.fileId} data-testid="report-file">
              {fileText(summary)}
            </div>
          ))}
        </details>
      ) : (
        snapshot.files.map(({ summary }, i) => (
          <span key={summary.fileId} className="report-file" data-testid="report-file">
            {snapshot.compare ? `${i === 0 ? 'A' : 'B'}: ` : ''}
            {fileText(summary)}
          </span>
        ))
      )}
      <span className="report-content" data-testid="report-content">
        {snapshot.withContent
          ? 'Prompts, responses, labels and tool arguments included'
          : 'Prompts, responses, labels and tool arguments left out'}
      </span>
    </header>
  );
}

/** A file as the header names it: its path in a run (the folder tells ranks apart), format, size, window. */
function fileText(summary: ReportSnapshot['files'][number]['summary']): string {
  const name = summary.path ?? summary.name;
  return `${name} · ${summary.formatLabels.name} · ${formatBytes(summary.bytes)} · ${windowText(summary)}`;
}

/** The window the file's figures use: its rollout's own, or the whole file. */
function windowText(summary: ReportSnapshot['files'][number]['summary']): string {
  const own = summary.rolloutWindow;
  if (own) return `figures over ${own.label} (${formatDuration(own.ownEndSec - own.ownStartSec)})`;
  if (summary.globalStartSec === null || summary.globalEndSec === null) return 'no rows';
  return `figures over the whole file (${formatDuration(summary.globalEndSec - summary.globalStartSec)})`;
}
