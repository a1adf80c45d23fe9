import { useLayoutEffect, useRef } from 'react';
import type { FileSummary } from '../../src-main/core/api/trace-api';
import { useViewStore } from '../state/view-store';
import { useHost } from '../host/host-context';
import { usePerfPrefetch, useRowOrder } from '../host/data-hooks';
import { Toolbar } from '../toolbar/Toolbar';
import { DetailsPanel } from '../details/DetailsPanel';
import { openSources } from '../opening/open-files';
import { prefetches, tabViews } from '../views/registry';

/** One open file's page: toolbar, the registered tab view picked, and the details side panel. */
export function FilePage({ file }: { file: FileSummary }) {
  const host = useHost();
  const viewId = useViewStore((s) => s.view);
  const detailsOpen = useViewStore((s) => s.detailsOpen);
  const order = useRowOrder(file);
  const views = tabViews(file, host);
  // a shared report opens no other file: it does not offer the rest of a rotated set
  const rotatedSet = host.kind === 'report' ? undefined : file.rotatedSet;
  const View = (views.find((v) => v.id === viewId) ?? views[0]).component;
  useKeptTimesWhenStartMoves(file);
  usePerfPrefetch(file, prefetches(views, 'perf-digest'), prefetches(views, 'group-page'));

  return (
    <div className="file-view">
      <section className="timeline-area" data-testid="timeline-area">
        <Toolbar file={file} order={order} views={views} />
        {(file.notices.length > 0 || rotatedSet) && (
          <div className="notices" data-testid="file-notices">
            {file.notices.map((notice) => (
              <div className="notice" key={notice}>
                {notice}
              </div>
            ))}
            {rotatedSet && (
              <div className="notice" data-testid="rotated-set-offer">
                This file is one of a rotated set of {rotatedSet.length} files.{' '}
                <button
                  type="button"
                  className="button small"
                  data-testid="open-rotated-set"
                  onClick={() =>
                    void openSources(
                      host,
                      rotatedSet.map((path) => ({ kind: 'path' as const, path })),
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
        {/* a preview's rows are timed from its own earliest start: rows fetched before it
            moved would be drawn shifted */}
        <View key={`${viewId}:${file.fileId}:${file.globalStartSec}`} file={file} order={order} />
      </section>
      {detailsOpen && <DetailsPanel file={file} />}
    </div>
  );
}

/**
 * A preview whose rows start earlier than the last one moves the file's times (seconds from its
 * earliest start) by the difference: the stored window and cursor move with them, so the view
 * stays on the same moment instead of jumping.
 */
function useKeptTimesWhenStartMoves(file: FileSummary) {
  const shiftTimes = useViewStore((s) => s.shiftTimes);
  const last = useRef<{ fileId: string; startSec: number | null } | null>(null);
  useLayoutEffect(() => {
    const before = last.current;
    const now = file.globalStartSec;
    if (before && before.fileId === file.fileId && before.startSec !== null && now !== null)
      if (before.startSec !== now) shiftTimes(file.fileId, before.startSec - now);
    last.current = { fileId: file.fileId, startSec: now };
  }, [file.fileId, file.globalStartSec, shiftTimes]);
}
