import { useEffect, useMemo, useState } from 'react';
import type { FileSummary, PerfDigest, RowView } from '../../src-main/core/api/trace-api';
import type { GroupFigures } from '../../src-main/core/model/rollout-figures';
import type { TraceHost } from '../host/trace-host';
import { useViewStore } from '../state/view-store';
import { formatDuration } from '../timeline/time-format';
import { groupRows, wallVsMedian, type GroupFilter, type GroupSort } from './group-rows';
import './groups.css';

const SORTS: [GroupSort, string][] = [
  ['group', 'group'],
  ['wall', 'wall time'],
  ['wall-vs-median', 'wall / median sample'],
  ['reward-mean', 'reward mean'],
  ['reward-std', 'reward spread (lowest first)'],
];
const FILTERS: [GroupFilter, string][] = [
  ['all', 'all groups'],
  ['zero-variance', 'zero variance only'],
  ['resumed', 'with resumed samples'],
];

/**
 * GRPO groups, one line each: the group's samples as a band over this rollout's own window with
 * its slowest sample marked, reward mean and spread (zero-variance groups flagged: no learning
 * signal), the group's wall time against its median sample. A group expands to its samples; a
 * sample opens in the timeline.
 */
export function GroupsView({ host, file }: { host: TraceHost; file: FileSummary }) {
  // the rollout's window from the perf digest, the groups from a call of their own
  const [perf, setPerf] = useState<{ digest: PerfDigest; groups: GroupFigures[] } | null>(null);
  const [sort, setSort] = useState<GroupSort>('group');
  const [filter, setFilter] = useState<GroupFilter>('all');
  const [open, setOpen] = useState<Set<number>>(new Set());

  useEffect(() => {
    let live = true;
    void Promise.all([host.api.getPerf(file.fileId), host.api.getPerfGroups(file.fileId)]).then(
      ([digest, groups]) => live && setPerf({ digest, groups }),
    );
    return () => {
      live = false;
    };
  }, [host, file.fileId]);

  const groups = useMemo(
    () => (perf ? groupRows(perf.groups, sort, filter) : []),
    [perf, sort, filter],
  );
  if (!perf) return <div className="groups-view muted">Loading groups…</div>;
  const { own } = perf.digest.rollout;
  const all = perf.groups;
  const zero = all.filter((g) => g.zeroVariance).length;

  return (
    <div className="groups-view" data-testid="groups-view">
      <p className="groups-summary">
        {all.length} groups · <strong>{zero}</strong> with zero reward variance (no learning signal)
        · bands over {own.label}
      </p>
      <div className="groups-controls">
        <label>
          Sort{' '}
          <select
            value={sort}
            data-testid="groups-sort"
            onChange={(e) => setSort(e.target.value as GroupSort)}
          >
            {SORTS.map(([id, label]) => (
              <option key={id} value={id}>
                {label}
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
            {FILTERS.map(([id, label]) => (
              <option key={id} value={id}>
                {label}
              </option>
            ))}
          </select>
        </label>
      </div>
      <table className="groups-table">
        <thead>
          <tr>
            <th>group</th>
            <th>samples</th>
            <th className="band-col">samples&apos; span in this rollout (▲ slowest sample)</th>
            <th>wall</th>
            <th>median sample</th>
            <th>wall / median</th>
            <th>reward mean</th>
            <th>reward std</th>
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
    </div>
  );
}

function GroupLine({
  host,
  file,
  group: g,
  window,
  expanded,
  onToggle,
}: {
  host: TraceHost;
  file: FileSummary;
  group: GroupFigures;
  window: { startSec: number; endSec: number };
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
