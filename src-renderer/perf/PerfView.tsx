import { useMemo, useState } from 'react';
import type { FileSummary } from '../../src-main/core/api/trace-api';
import { PD_PHASES } from '../../src-main/core/model/pd-phases';
import { usePerf } from '../host/data-hooks';
import { useHost } from '../host/host-context';
import { queryShownRows } from '../host/shown-order';
import { fitWindow } from '../timeline/time-window';
import { useViewStore } from '../state/view-store';
import { Histogram } from './Histogram';
import { PERF_STATS, formatPerfValue, perfTableRows, perfUnit } from './perf-table';
import { RunningChart } from './RunningChart';
import { formatValue } from './value-format';
import { keptOpenText } from './kept-open';
import { perfWords } from './perf-words';
import { FilterScopeNote } from '../toolbar/FilterScopeNote';
import './perf.css';
import { ViewPicture } from '../picture/ViewPicture';

/** Span names whose duration distributions get a chart (the rest are in the table). */
const DURATION_CHARTS = 8;

/**
 * The rollout's perf summary: slime's perf/... table, samples running over time with the long
 * tail, per-request histograms (click a bin to see those samples), durations per span name.
 */
export function PerfView({ file }: { file: FileSummary }) {
  const { perf, error } = usePerf(file.fileId, file.streaming);
  const patchFilter = useViewStore((s) => s.patchFilter);
  const setView = useViewStore((s) => s.setView);
  const setPickedLabel = useViewStore((s) => s.setPickedLabel);
  const setWindow = useViewStore((s) => s.setWindow);
  const setHighlightNames = useViewStore((s) => s.setHighlightNames);
  const host = useHost();

  const table = useMemo(() => (perf ? perfTableRows(perf.perf) : []), [perf]);
  const running = perf?.running.summary ?? null;
  const durations = useMemo(
    () =>
      (perf?.durations ?? [])
        .filter((d) => d.stats !== null)
        .sort((a, b) => b.stats!.total - a.stats!.total),
    [perf],
  );
  const [pickError, setPickError] = useState<string | null>(null);

  // a bin click asks the worker for the bin's rows, filters to them and fits the time axis to
  // them, so one row is not a speck
  const pick = async (seriesKey: string, binIndex: number, label: string, spanNames: string[]) => {
    setPickError(null);
    try {
      const rowIds = await host.api.getPerfBinRows(file.fileId, seriesKey, binIndex);
      patchFilter({ rowIds });
      setPickedLabel(label);
      setHighlightNames(spanNames);
      setView('timeline');
      const order = await queryShownRows(host.api, file.fileId, {
        sort: 'row_id',
        filter: { rowIds },
      });
      if (order.rowIds.length === 0) return;
      setWindow(file.fileId, fitWindow(minOf(order.startSec), maxOf(order.endSec)));
    } catch (e) {
      setPickError(e instanceof Error ? e.message : String(e));
    }
  };

  if (error) return <div className="perf-panel error-banner">{error}</div>;
  if (!perf || !running)
    return (
      <div className="perf-panel muted" data-testid="perf-loading">
        Loading the perf summary…
      </div>
    );

  const rollout = perf.rollout;
  const startIds = [...new Set(rollout.resumed.map((r) => r.startRolloutId))].sort((x, y) => x - y);
  const idleSec = rollout.breakdownWhole.seconds['idle between attempts'];
  const pickRows = (rowIds: number[], label: string) => {
    patchFilter({ rowIds });
    setPickedLabel(label);
    setView('timeline');
  };
  const requestSeries = perf.series.filter((s) => phaseColour(s.key) === null);
  const phaseSeries = perf.series.filter((s) => phaseColour(s.key) !== null);
  const requests = perf.perf['perf/request/count'] ?? perf.series[0]?.valueCount ?? 0;
  const words = perfWords(file.capabilities, requests);

  return (
    <ViewPicture name={`${file.name}-perf`} className="perf-panel" testId="perf-view">
      {pickError && (
        <div className="error-banner" data-testid="perf-pick-error">
          Cannot show the bin's samples: {pickError}
        </div>
      )}
      <FilterScopeNote file={file} what="These figures" />
      <p className="perf-window" data-testid="perf-window">
        Wall time, running {words.running}, long tail and stragglers over{' '}
        {file.capabilities.samples
          ? rollout.own.label
          : `the whole file (${formatValue(rollout.own.durationSec, 's')})`}
        .
        {rollout.resumed.length > 0 && (
          <>
            {' '}
            <button
              type="button"
              className="link-button"
              data-testid="perf-resumed"
              onClick={() =>
                pickRows(
                  rollout.resumed.map((r) => r.rowId),
                  'resumed from an earlier rollout',
                )
              }
            >
              {rollout.resumed.length} samples resumed from rollout
              {startIds.length === 1 ? '' : 's'} {startIds.join(', ')}
            </button>{' '}
            waited {formatValue(idleSec, 's')} idle between attempts (not counted here).
          </>
        )}
      </p>
      <section className="perf-cards">
        <Card label={words.rows} value={String(file.rows)} />
        {words.requests && <Card label="requests" value={String(requests)} />}
        <Card
          label={words.wall}
          value={formatValue(rollout.own.durationSec, 's')}
          note={rollout.resumed.length > 0 ? "this rollout's own window" : undefined}
        />
        <Card
          label="peak running"
          value={`${running.peak}`}
          note={`at ${formatValue(running.peakAtSec, 's')}`}
        />
        {running.tailStartSec !== null && (
          <Card
            label="long tail"
            value={`${(running.tailShare * 100).toFixed(0)}%`}
            note={`of the wall time with ≤${running.tailMax} running`}
            warn={running.tailShare > 0.3}
          />
        )}
      </section>

      {rollout.stragglers && (
        <p className="perf-stragglers" data-testid="perf-stragglers">
          Stragglers:{' '}
          <button
            type="button"
            className="link-button"
            onClick={() => pickRows(rollout.stragglers!.rowIds, 'stragglers')}
          >
            {words.stragglers(rollout.stragglers)}
          </button>
          . {words.keptOpen}: {keptOpenText(rollout.breakdownOwn.seconds)}.
        </p>
      )}

      <section>
        <h3>{words.runningTitle}</h3>
        <RunningChart running={perf.running} />
      </section>

      {table.length > 0 && (
        <section>
          <h3>
            perf/… metrics <span className="muted">as slime logs them for this rollout</span>
          </h3>
          <table className="perf-table" data-testid="perf-table">
            <thead>
              <tr>
                <th>metric</th>
                <th>unit</th>
                {PERF_STATS.map((s) => (
                  <th key={s} className="num">
                    {s}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {table.map((row, i) => (
                <tr
                  key={row.metric}
                  data-metric={row.metric}
                  className={i > 0 && table[i - 1].group !== row.group ? 'group-start' : ''}
                >
                  <td className="metric">{row.metric}</td>
                  <td className="muted">{perfUnit(row.metric)}</td>
                  {row.value !== undefined ? (
                    <>
                      <td className="num" data-stat="value" data-value={row.value}>
                        {formatPerfValue(row.value)}
                      </td>
                      <td colSpan={3} className="muted count-note">
                        count
                      </td>
                    </>
                  ) : (
                    PERF_STATS.map((s) => (
                      <td key={s} className="num" data-stat={s} data-value={row.stats[s] ?? ''}>
                        {formatPerfValue(row.stats[s])}
                      </td>
                    ))
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}

      {requestSeries.length > 0 && (
        <section>
          <h3>
            Per request <span className="muted">click a bar to show those samples</span>
          </h3>
          <div className="histograms">
            {requestSeries.map((s) => (
              <Histogram
                key={s.key}
                title={s.key}
                unit={s.unit}
                testTitle={`${s.key}${s.unit ? ` (${s.unit})` : ''}`}
                digest={s}
                onPick={(bin, label) => void pick(s.key, bin, label, s.spanNames)}
              />
            ))}
          </div>
        </section>
      )}

      {phaseSeries.length > 0 && (
        <section>
          <h3>PD phases</h3>
          <div className="histograms">
            {phaseSeries.map((s) => (
              <Histogram
                key={s.key}
                title={s.key}
                unit={s.unit}
                testTitle={`${s.key}${s.unit ? ` (${s.unit})` : ''}`}
                digest={s}
                colour={phaseColour(s.key) ?? undefined}
                onPick={(bin, label) => void pick(s.key, bin, label, s.spanNames)}
              />
            ))}
          </div>
        </section>
      )}

      {durations.length > 0 && (
        <section>
          <h3>
            Durations per span name{' '}
            <span className="muted">by total time; click a name to show rows that have it</span>
          </h3>
          <table className="perf-table" data-testid="duration-table">
            <thead>
              <tr>
                <th>span</th>
                <th className="num">count</th>
                <th className="num">total</th>
                <th className="num">mean</th>
                <th className="num">median</th>
                <th className="num">p90</th>
                <th className="num">max</th>
              </tr>
            </thead>
            <tbody>
              {durations.map(({ name, stats }) => (
                <tr key={name} data-span={name}>
                  <td className="metric">
                    <button
                      type="button"
                      className="link-button"
                      onClick={() => {
                        patchFilter({ spanName: name });
                        setView('timeline');
                      }}
                    >
                      {name}
                    </button>
                  </td>
                  <td className="num">{stats!.count}</td>
                  <td className="num">{formatValue(stats!.total, 's')}</td>
                  <td className="num">{formatValue(stats!.mean, 's')}</td>
                  <td className="num">{formatValue(stats!.median, 's')}</td>
                  <td className="num">{formatValue(stats!.p90, 's')}</td>
                  <td className="num">{formatValue(stats!.max, 's')}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <div className="histograms">
            {durations.slice(0, DURATION_CHARTS).map((d) => (
              <Histogram
                key={d.name}
                title={`${d.name} duration`}
                unit="s"
                testTitle={`${d.name} duration (s)`}
                digest={d}
              />
            ))}
          </div>
        </section>
      )}
    </ViewPicture>
  );
}

function Card({
  label,
  value,
  note,
  warn,
}: {
  label: string;
  value: string;
  note?: string;
  warn?: boolean;
}) {
  return (
    <div className={`perf-card${warn ? ' warn' : ''}`} data-testid="perf-card">
      <div className="perf-card-value">{value}</div>
      <div className="perf-card-label">{label}</div>
      {note && <div className="perf-card-note muted">{note}</div>}
    </div>
  );
}

/** "prefill forward" -> the fixed colour of that PD phase; null for non-phase series. */
function phaseColour(key: string): string | null {
  const [role, phase] = key.split(' ');
  return PD_PHASES.find((p) => p.role === role && p.phase === phase)?.colour ?? null;
}

/** Extremes of a typed array without spreading it into arguments (100k rows overflow the stack). */
function minOf(values: Float64Array): number {
  let min = Infinity;
  for (const v of values) if (v < min) min = v;
  return min;
}

function maxOf(values: Float64Array): number {
  let max = -Infinity;
  for (const v of values) if (v > max) max = v;
  return max;
}
