import { useEffect, useState } from 'react';
import type { FileSummary, RowOrder } from '../../src-main/core/api/trace-api';
import type { TraceHost } from '../host/trace-host';
import { useViewStore } from '../state/view-store';
import { Toolbar } from '../toolbar/Toolbar';
import { DetailsPanel } from '../details/DetailsPanel';
import { PerfPanel } from '../perf/PerfPanel';
import { GroupsView } from '../groups/GroupsView';
import { Timeline } from './Timeline';
import { openSources } from '../state/open-files';

/** One open file: toolbar, timeline or perf view, and the details side panel. */
export function FileView({ host, file }: { host: TraceHost; file: FileSummary }) {
  const sort = useViewStore((s) => s.sort);
  const descending = useViewStore((s) => s.descending);
  const filter = useViewStore((s) => s.filter);
  const filterMode = useViewStore((s) => s.filterMode);
  const setMatching = useViewStore((s) => s.setMatching);
  const view = useViewStore((s) => s.view);
  const detailsOpen = useViewStore((s) => s.detailsOpen);
  const [order, setOrder] = useState<RowOrder | null>(null);

  // Highlight mode keeps every row in order and marks the ones the filter matches.
  useEffect(() => {
    let live = true;
    const filtered = host.api.queryRows(file.fileId, { sort, descending, filter });
    const all =
      filterMode === 'highlight' ? host.api.queryRows(file.fileId, { sort, descending }) : filtered;
    void Promise.all([filtered, all]).then(([match, shown]) => {
      if (!live) return;
      setOrder(shown);
      const active = Object.values(filter).some(
        (v) => v !== undefined && v !== '' && !(Array.isArray(v) && v.length === 0),
      );
      setMatching(filterMode === 'highlight' && active ? new Set(match.rowIds) : null);
      document.body.dataset.shownRows = String(match.rowIds.length);
    });
    return () => {
      live = false;
    };
    // file.rows: a file still being read grows (previews), and its order with it
  }, [host, file.fileId, file.rows, sort, descending, filter, filterMode, setMatching]);

  return (
    <div className="file-view">
      <section className="timeline-area" data-testid="timeline-area">
        <Toolbar host={host} file={file} order={order} />
        {(file.notices.length > 0 || file.rotatedSet) && (
          <div className="notices" data-testid="file-notices">
            {file.notices.map((notice) => (
              <div className="notice" key={notice}>
                {notice}
              </div>
            ))}
            {file.rotatedSet && (
              <div className="notice" data-testid="rotated-set-offer">
                This file is one of a rotated set of {file.rotatedSet.length} files.{' '}
                <button
                  type="button"
                  className="button small"
                  data-testid="open-rotated-set"
                  onClick={() =>
                    void openSources(
                      host,
                      file.rotatedSet!.map((path) => ({ kind: 'path' as const, path })),
                      `${file.name} (set)`,
                      0,
                    )
                  }
                >
                  Open the whole set
                </button>
              </div>
            )}
          </div>
        )}
        {view === 'perf' ? (
          <PerfPanel host={host} file={file} />
        ) : view === 'groups' ? (
          <GroupsView host={host} file={file} />
        ) : (
          // a preview's rows are timed from its own earliest start: rows fetched before it
          // moved would be drawn shifted
          <Timeline
            key={`${file.fileId}:${file.globalStartSec}`}
            host={host}
            file={file}
            order={order}
          />
        )}
      </section>
      {detailsOpen && <DetailsPanel host={host} file={file} />}
    </div>
  );
}
