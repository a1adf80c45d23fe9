import type { FileSummary } from '../../src-main/core/api/trace-api';
import type { TraceHost } from '../host/trace-host';

/** One open file: timeline area and details side panel. */
export function FileView({ file }: { host: TraceHost; file: FileSummary }) {
  return (
    <div className="file-view">
      <section className="timeline-area" data-testid="timeline-area">
        <div className="file-facts" data-testid="file-facts">
          {file.name} · {(file.bytes / 1024).toFixed(1)} KiB · {file.samples} samples · {file.rows} rows
        </div>
        {file.notices.map((notice) => (
          <div className="notice" key={notice}>
            {notice}
          </div>
        ))}
      </section>
      <aside className="details-panel" data-testid="details-panel">
        <div className="muted">Select a span or a row to see its details.</div>
      </aside>
    </div>
  );
}
