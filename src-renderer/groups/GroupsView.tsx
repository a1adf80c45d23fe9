import { useEffect, useRef, useState } from 'react';
import type {
  FileSummary,
  GroupPage,
  GroupQuery,
  RowView,
} from '../../src-main/core/api/trace-api';
import type { GroupFigures } from '../../src-main/core/model/rollout-figures';
import { GROUP_FILTERS, GROUP_SORTS, type GroupFilter } from '../../src-main/core/api/sort-keys';
import { wallVsMedian } from '../../src-main/core/model/group-wall-ratio';
import { GROUPS_PER_PAGE, fileState, groupPageOf, usePerf } from '../host/data-hooks';
import type { TraceHost } from '../host/trace-host';
import { useViewStore } from '../state/view-store';
import { formatDuration } from '../timeline/time-format';
import { FilterScopeNote } from '../toolbar/FilterScopeNote';
import { useFileSampleFigures } from '../run/file-sample-figures';
import type { RunSampleFigures } from '../../src-main/core/model/run-extra';
import { EXTRA_COLUMNS, GroupExtraCells } from './GroupExtraCells';
import { GroupSortHeader } from './GroupSortHeader';
import {
  FIRST_ORDER,
  clickedOrder,
  groupQueryOf,
  type GroupColumn,
  type GroupOrder,
} from './group-order';
import './groups.css';
import { ViewPicture } from '../picture/ViewPicture';

/**
 * GRPO groups, one line each: the group's samples as a band over this rollout's own window with
 * its slowest sample marked, reward mean and spread (zero-variance groups flagged: no learning
 * signal), the group's wall time against its median sample. A group expands to its samples; a
 * sample opens in the timeline. The worker sorts and filters; the view asks a page at a time.
 * A rollout of an open run with a train dump or request metrics gets their columns too. Every
 * numeric column sorts by a click on its header, a second click reversing it.
 */
export function GroupsView({ host, file }: { host: TraceHost; file: FileSummary }) {
  // the rollout's window from the perf digest (usually fetched already), the groups page by page
  const { perf } = usePerf(file.fileId, file.streaming);
  // the file's rows so far and whether whole: its groups are asked again when this changes
  const state = fileState(file);
  const [order, setOrder] = useState<GroupOrder>(FIRST_ORDER);
  const [filter, setFilter] = useState<GroupFilter>('all');
  const [open, setOpen] = useState<Set<number>>(new Set());
  const [page, setPage] = useState<GroupPage | null>(null);
  // which order, filter and file state the page shown answers (the view's "ready" signal)
  const [pageFor, setPageFor] = useState('');
  const [loadingMore, setLoadingMore] = useState(false);
  const extra = useFileSampleFigures(file);
  // the sort, filter and file state asked last: a page asked for another one is dropped
  const asking = useRef('');

  // the figures' identity too: a run column's order changes when the run's figures do
  const asked = `${order.column}:${order.reverse}:${filter}:${state}`;
  const sortedBy = order.column === 'group' && !order.reverse ? null : order.column;

  useEffect(() => {
    let live = true;
    asking.current = asked;
    const query: GroupQuery = groupQueryOf(order, filter, extra, 0, GROUPS_PER_PAGE);
    void groupPageOf(host, file.fileId, state, query).then((first) => {
      if (!live) return;
      setPage(first);
      setPageFor(asked);
    });
    return () => {
      live = false;
    };
    // a file still being read: its groups so far, asked again as it grows and once it is whole
  }, [host, file.fileId, state, order, filter, extra, asked]);

  const sortBy = (column: GroupColumn) => setOrder((o) => clickedOrder(o, column));
  const header = (column: GroupColumn, label: string, title?: string) => (
    <GroupSortHeader
      column={column}
      label={label}
      title={title}
      order={order}
      onSort={sortBy}
      key={column}
    />
  );

  const showMore = () => {
    if (!page || loadingMore) return;
    setLoadingMore(true);
    const query = groupQueryOf(order, filter, extra, page.groups.length, GROUPS_PER_PAGE);
    void host.api
      .getPerfGroups(file.fileId, query)
      .then((next) =>
        setPage((shown) =>
          shown && asking.current === asked && shown.groups.length === next.offset
            ? { ...next, offset: 0, groups: [...shown.groups, ...next.groups] }
            : shown,
        ),
      )
      .finally(() => setLoadingMore(false));
  };

  if (!perf || !page) return <div className="groups-view muted">Loading groups…</div>;
  const { own } = perf.rollout;
  const groups = page.groups;

  return (
    <ViewPicture
      name={`${file.name}-groups`}
      className="groups-view"
      testId="groups-view"
      data={{
        'sorted-by': sortedBy ?? '',
        'sort-reverse': order.reverse,
        'groups-state': pageFor === asked ? 'ready' : 'loading',
      }}
    >
      <FilterScopeNote file={file} what="These groups" />
      <p className="groups-summary">
        {page.total} groups · <strong>{page.zeroVariance}</strong> with zero reward variance (no
        learning signal) · bands over {own.label}
      </p>
      <div className="groups-controls">
        <label>
          Sort{' '}
          <select
            value={order.column}
            data-testid="groups-sort"
            onChange={(e) => setOrder({ column: e.target.value as GroupColumn, reverse: false })}
          >
            {GROUP_SORTS.map(({ key, label }) => (
              <option key={key} value={key}>
                {label}
              </option>
            ))}
            {extra &&
              EXTRA_COLUMNS.map(({ key, label }) => (
                <option key={key} value={`run:${key}`}>
                  {label.replace('\n', ' ')} (run)
                </option>
              ))}
          </select>
        </label>
        <label>
          Show{' '}
          <select
            value={filter}
            data-testid="groups-filter"
            onChange={(e) => setFilter(e.target.value as GroupFilter)}
          >
            {GROUP_FILTERS.map(({ key, label }) => (
              <option key={key} value={key}>
                {label}
              </option>
            ))}
          </select>
        </label>
      </div>
      <table className={`groups-table${extra ? ' with-run-figures' : ''}`}>
        <thead>
          <tr>
            {header('group', 'group')}
            {header('samples', 'samples')}
            <th className="band-col">
              {extra ? 'span (▲ slowest)' : "samples' span in this rollout (▲ slowest sample)"}
            </th>
            {header('wall', 'wall')}
            {header('median-sample', 'median\nsample')}
            {header('wall-vs-median', 'wall /\nmedian')}
            {header('reward-mean', 'reward\nmean')}
            {header('reward-std', 'reward\nstd')}
            {extra && EXTRA_COLUMNS.map((c) => header(`run:${c.key}`, c.label, c.title))}
          </tr>
        </thead>
        <tbody>
          {groups.map((g) => {
            const key = g.rowIds[0];
            const expanded = open.has(key);
            return (
              <GroupLine
                key={key}
                host={host}
                file={file}
                group={g}
                window={own}
                extra={extra}
                expanded={expanded}
                onToggle={() =>
                  setOpen((s) => {
                    const next = new Set(s);
                    if (next.has(key)) next.delete(key);
                    else next.add(key);
                    return next;
                  })
                }
              />
            );
          })}
        </tbody>
      </table>
      <p className="groups-paging muted" data-testid="groups-paging">
        {groups.length} of {page.shown} shown
        {groups.length < page.shown && (
          <button
            type="button"
            className="button small"
            data-testid="groups-more"
            disabled={loadingMore}
            onClick={showMore}
          >
            show {Math.min(GROUPS_PER_PAGE, page.shown - groups.length)} more
          </button>
        )}
      </p>
    </ViewPicture>
  );
}

function GroupLine({
  host,
  file,
  group: g,
  window,
  extra,
  expanded,
  onToggle,
}: {
  host: TraceHost;
  file: FileSummary;
  group: GroupFigures;
  window: { startSec: number; endSec: number };
  extra: Map<number, RunSampleFigures> | null;
  expanded: boolean;
  onToggle: () => void;
}) {
  const [samples, setSamples] = useState<RowView[] | null>(null);
  useEffect(() => {
    if (!expanded || samples) return;
    void host.api.getRows(file.fileId, g.rowIds).then(setSamples);
  }, [expanded, samples, host, file.fileId, g.rowIds]);
  const span = Math.max(1e-9, window.endSec - window.startSec);
  const pct = (sec: number) =>
    `${(Math.min(1, Math.max(0, (sec - window.startSec) / span)) * 100).toFixed(2)}%`;
  const showInTimeline = (rowIds: number[], label: string) => {
    const view = useViewStore.getState();
    view.setFilter({ rowIds });
    view.setPickedLabel(label);
    view.setView('timeline');
  };
  const ratio = wallVsMedian(g);
  return (
    <>
      <tr
        className={`group-line${g.zeroVariance ? ' zero-variance' : ''}`}
        data-group={String(g.groupIndex)}
        data-zero-variance={g.zeroVariance}
        data-wall-sec={g.wallSec}
        data-testid="group-line"
      >
        <td>
          <button type="button" className="expander" onClick={onToggle} aria-expanded={expanded}>
            {expanded ? '▾' : '▸'} {String(g.groupIndex)}
          </button>
        </td>
        <td className="num">
          {g.rowIds.length}
          {g.resumedSamples > 0 && (
            <span className="badge" title="samples resumed from an earlier rollout">
              {g.resumedSamples} resumed
            </span>
          )}
        </td>
        <td className="band-col">
          <div className="band-track">
            <div
              className="band"
              style={{
                left: pct(g.startSec),
                width: `calc(${pct(g.endSec)} - ${pct(g.startSec)})`,
              }}
            />
            <button
              type="button"
              className="slowest-mark"
              style={{ left: pct(g.slowestEndSec) }}
              title={`slowest sample: row ${g.slowestRowId}, ended at ${formatDuration(g.slowestEndSec - window.startSec)}`}
              onClick={() =>
                showInTimeline([g.slowestRowId], `slowest of group ${String(g.groupIndex)}`)
              }
            >
              ▲
            </button>
          </div>
        </td>
        <td className="num">{formatDuration(g.wallSec)}</td>
        <td className="num">{formatDuration(g.medianSampleSec)}</td>
        <td className={`num${ratio >= 1.5 ? ' warn' : ''}`}>{ratio.toFixed(2)}×</td>
        <td className="num">{g.rewardMean === null ? '–' : g.rewardMean.toFixed(3)}</td>
        <td className="num">
          {g.rewardStd === null ? '–' : g.rewardStd.toFixed(3)}
          {g.zeroVariance && (
            <span
              className="badge warn"
              title="every reward equal: zero advantage for the whole group"
            >
              no signal
            </span>
          )}
        </td>
        {extra && <GroupExtraCells rowIds={g.rowIds} figures={extra} />}
      </tr>
      {expanded &&
        (samples ?? []).map((row) => (
          <tr key={row.rowId} className="sample-line" data-row={row.rowId}>
            <td />
            <td className="num muted">#{String(row.sampleIndex)}</td>
            <td className="band-col">
              <div className="band-track thin">
                <div
                  className={`band sample${row.rowId === g.slowestRowId ? ' slowest' : ''}`}
                  style={{
                    left: pct(Math.max(row.startSec, g.startSec)),
                    width: `calc(${pct(row.endSec)} - ${pct(Math.max(row.startSec, g.startSec))})`,
                  }}
                />
              </div>
            </td>
            <td colSpan={3} className="muted">
              {row.status ?? ''}
            </td>
            <td className="num">{formatReward(row.reward)}</td>
            <td>
              <button
                type="button"
                className="button small"
                onClick={() => showInTimeline([row.rowId], `sample ${String(row.sampleIndex)}`)}
              >
                timeline
              </button>
            </td>
            {extra && <GroupExtraCells rowIds={[row.rowId]} figures={extra} />}
          </tr>
        ))}
    </>
  );
}

/** a reward as one number: itself, or a dict's `score` (slime's convention) */
function formatReward(reward: unknown): string {
  if (typeof reward === 'number') return reward.toFixed(3);
  if (typeof reward === 'boolean') return reward ? '1' : '0';
  if (reward && typeof reward === 'object' && 'score' in reward) {
    const score = (reward as { score: unknown }).score;
    if (typeof score === 'number') return score.toFixed(3);
  }
  return '–';
}
