import { useEffect, useMemo, useState } from 'react';
import { queryShownRows, type ShownOrder } from '../host/shown-order';
import type { FileSummary, SortKey } from '../../src-main/core/api/trace-api';
import { SORT_KEYS } from '../../src-main/core/api/sort-keys';
import type { TraceHost } from '../host/trace-host';
import { Timeline } from '../timeline/Timeline';
import { summedBarCounts } from '../timeline/legend-entries';

/** Rows a figure of the answer names, shown in the compared timelines. */
export interface PickedRows {
  side: 'a' | 'b';
  rowIds: number[];
  label: string;
}

interface SideQuery {
  sort: SortKey;
  descending: boolean;
  text: string;
}

/** the orders that mean the same on both sides of a comparison */
const COMPARE_SORTS: SortKey[] = ['row_id', 'start', 'duration', 'reward', 'sample_index'];
const SORTS = SORT_KEYS.filter(({ key }) => COMPARE_SORTS.includes(key)).map(
  ({ key, label }): [SortKey, string] => [key, label],
);

/**
 * Both rollouts' timelines, each relative to its own start, on one time scale: zoom, pan and
 * cursor are shared (one window key); each side keeps its own sort and search, or one search
 * for both.
 */
export function CompareTimelines({
  host,
  fileA,
  fileB,
  picked = null,
  onClearPicked,
}: {
  host: TraceHost;
  fileA: FileSummary;
  fileB: FileSummary;
  /** rows a figure of the answer named: that side shows only them */
  picked?: PickedRows | null;
  onClearPicked?(): void;
}) {
  const [layout, setLayout] = useState<'stacked' | 'side-by-side'>('stacked');
  // one legend for both: the bars of either file, by their counts together (each file's
  // barCounts, as a single file's legend counts); one hidden set
  const [hiddenNames, setHiddenNames] = useState<Set<string>>(new Set());
  const spanNames = useMemo(
    () => summedBarCounts([fileA.barCounts, fileB.barCounts]),
    [fileA.barCounts, fileB.barCounts],
  );
  const toggleHidden = (name: string) =>
    setHiddenNames((prev) => {
      const next = new Set(prev);
      if (next.has(name)) next.delete(name);
      else next.add(name);
      return next;
    });
  const [sameFilter, setSameFilter] = useState(true);
  const [queries, setQueries] = useState<[SideQuery, SideQuery]>([
    { sort: 'row_id', descending: false, text: '' },
    { sort: 'row_id', descending: false, text: '' },
  ]);
  const [orders, setOrders] = useState<[ShownOrder | null, ShownOrder | null]>([null, null]);
  const windowKey = `compare:${fileA.fileId}:${fileB.fileId}`;
  // each rollout's own window (a resumed rollout's own work starts an hour into its file)
  const span = (f: FileSummary) =>
    f.rolloutWindow
      ? f.rolloutWindow.ownEndSec - f.rolloutWindow.ownStartSec
      : Math.max(1e-6, (f.globalEndSec ?? 0) - (f.globalStartSec ?? 0));
  const fitSec = Math.max(span(fileA), span(fileB));

  const idA = fileA.fileId;
  const idB = fileB.fileId;
  useEffect(() => {
    let live = true;
    const text = (i: 0 | 1) => (sameFilter ? queries[0].text : queries[i].text).trim() || undefined;
    void Promise.all(
      [idA, idB].map((fileId, i) =>
        queryShownRows(host.api, fileId, {
          sort: queries[i].sort,
          descending: queries[i].descending,
          filter: {
            text: text(i as 0 | 1),
            ...(picked && picked.side === (i === 0 ? 'a' : 'b') ? { rowIds: picked.rowIds } : {}),
          },
        }),
      ),
    ).then(([a, b]) => live && setOrders([a, b]));
    return () => {
      live = false;
    };
  }, [host, idA, idB, queries, sameFilter, picked]);

  const patch = (i: 0 | 1, change: Partial<SideQuery>) =>
    setQueries((prev) => {
      const next: [SideQuery, SideQuery] = [{ ...prev[0] }, { ...prev[1] }];
      next[i] = { ...next[i], ...change };
      return next;
    });

  return (
    <div className="compare-timelines-pane" data-testid="compare-timelines">
      <div className={`compare-timelines ${layout}`}>
        {([fileA, fileB] as const).map((file, i) => (
          <div
            className="compare-side-pane"
            key={file.fileId}
            data-testid={`compare-side-${i === 0 ? 'a' : 'b'}`}
          >
            <div className="compare-side-bar">
              <span className={`compare-side ${i === 0 ? 'a' : 'b'}`}>{i === 0 ? 'A' : 'B'}</span>
              <span className="compare-file">{file.name}</span>
              {(i === 0 || !sameFilter) && (
                <input
                  type="search"
                  className="search-box small"
                  placeholder={sameFilter ? 'search both' : 'search'}
                  value={queries[i].text}
                  onChange={(e) => patch(i as 0 | 1, { text: e.target.value })}
                  data-testid={`compare-search-${i === 0 ? 'a' : 'b'}`}
                />
              )}
              <select
                value={queries[i].sort}
                onChange={(e) => patch(i as 0 | 1, { sort: e.target.value as SortKey })}
              >
                {SORTS.map(([key, label]) => (
                  <option key={key} value={key}>
                    {label}
                  </option>
                ))}
              </select>
              <button
                type="button"
                className="button small"
                onClick={() => patch(i as 0 | 1, { descending: !queries[i].descending })}
              >
                {queries[i].descending ? '↓' : '↑'}
              </button>
              {i === 0 && (
                <span className="compare-timelines-bar">
                  <button
                    type="button"
                    className="button small"
                    onClick={() => setLayout(layout === 'stacked' ? 'side-by-side' : 'stacked')}
                    data-testid="compare-layout"
                    title="Zoom, pan and cursor move both timelines; each is relative to the start of its rollout's own window."
                  >
                    {layout === 'stacked' ? 'Side by side' : 'Stacked'}
                  </button>
                  <label>
                    <input
                      type="checkbox"
                      checked={sameFilter}
                      onChange={(e) => setSameFilter(e.target.checked)}
                      data-testid="same-filter"
                    />{' '}
                    same search for both
                  </label>
                </span>
              )}
              <span className="muted" data-testid={`compare-count-${i === 0 ? 'a' : 'b'}`}>
                {orders[i]?.rowIds.length ?? 0} / {file.rows} rows
              </span>
              {picked?.side === (i === 0 ? 'a' : 'b') && (
                <span className="compare-picked" data-testid="compare-picked">
                  {picked.label}
                  <button
                    type="button"
                    className="compare-picked-clear"
                    title="Show every row"
                    onClick={onClearPicked}
                  >
                    ×
                  </button>
                </span>
              )}
            </div>
            <Timeline
              file={file}
              order={orders[i]}
              windowKey={windowKey}
              fitSec={fitSec}
              originSec={file.rolloutWindow?.ownStartSec ?? 0}
              keyboard={i === 0}
              legend={{
                spanNames: i === 0 ? spanNames : null,
                hidden: hiddenNames,
                onToggleHidden: toggleHidden,
              }}
            />
          </div>
        ))}
      </div>
    </div>
  );
}
