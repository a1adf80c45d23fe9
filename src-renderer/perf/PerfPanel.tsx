import { useEffect, useMemo, useState } from 'react';
import { scaleLinear } from '@visx/scale';
import { AxisBottom, AxisLeft } from '@visx/axis';
import { Group } from '@visx/group';
import type { FileSummary, PerfView } from '../../src-main/core/api/trace-api';
import type { TraceHost } from '../host/trace-host';
import { useViewStore } from '../state/view-store';
import { formatDuration } from '../timeline/time-window';
import './perf.css';

const STATS = ['mean', 'median', 'max', 'min'];
const BINS = 20;

/** The rollout's perf: slime's perf/... table, per-request histograms, stragglers, durations. */
export function PerfPanel({ host, file }: { host: TraceHost; file: FileSummary }) {
  const [perf, setPerf] = useState<PerfView | null>(null);
  useEffect(() => {
    let live = true;
    void host.api.getPerf(file.fileId).then((p) => live && setPerf(p));
    return () => {
      live = false;
    };
  }, [host, file.fileId]);
  const table = useMemo(() => {
    const metrics = new Map<string, Record<string, number>>();
    for (const [key, value] of Object.entries(perf?.perf ?? {})) {
      const cut = key.lastIndexOf('/');
      // counts (perf/request/count) have no mean/median/max/min: shown as their own line
      const isStat = STATS.includes(key.slice(cut + 1));
      const metric = isStat ? key.slice(0, cut) : key;
      metrics.set(metric, {
        ...(metrics.get(metric) ?? {}),
        [isStat ? key.slice(cut + 1) : 'mean']: value,
      });
    }
    return [...metrics.entries()].sort();
  }, [perf]);
  if (!perf) return <div className="perf-panel muted">Loading…</div>;
  return (
    <div className="perf-panel" data-testid="perf-view">
      <section>
        <h3>Samples running over time</h3>
        <RunningChart running={perf.running} />
      </section>
      {table.length > 0 && (
        <section>
          <h3>perf/… metrics</h3>
          <table className="perf-table" data-testid="perf-table">
            <thead>
              <tr>
                <th>metric</th>
                {STATS.map((s) => (
                  <th key={s}>{s}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {table.map(([metric, values]) => (
                <tr key={metric} data-metric={metric}>
                  <td className="metric">{metric}</td>
                  {STATS.map((s) => (
                    <td key={s} className="num" data-stat={s} data-value={values[s] ?? ''}>
                      {values[s] === undefined
                        ? ''
                        : Number.isInteger(values[s])
                          ? values[s]
                          : values[s].toPrecision(5)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
      <section className="histograms">
        {perf.series.map((s) => (
          <Histogram
            key={s.key}
            title={`${s.key}${s.unit ? ` (${s.unit})` : ''}`}
            values={s.values}
            rowIds={s.rowIds}
          />
        ))}
        {perf.durations.slice(0, 8).map((d) => (
          <Histogram
            key={`d-${d.name}`}
            title={`${d.name} duration (s)`}
            values={d.valuesSec}
            rowIds={null}
          />
        ))}
      </section>
    </div>
  );
}

function Histogram({
  title,
  values,
  rowIds,
}: {
  title: string;
  values: number[];
  rowIds: number[] | null;
}) {
  const patchFilter = useViewStore((s) => s.patchFilter);
  const setView = useViewStore((s) => s.setView);
  const width = 300;
  const height = 140;
  const margin = { top: 8, right: 8, bottom: 24, left: 32 };
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const span = hi - lo || 1;
  const bins = Array.from({ length: BINS }, () => ({ count: 0, rows: new Set<number>() }));
  values.forEach((v, i) => {
    const b = Math.min(BINS - 1, Math.floor(((v - lo) / span) * BINS));
    bins[b].count++;
    if (rowIds) bins[b].rows.add(rowIds[i]);
  });
  const innerW = width - margin.left - margin.right;
  const innerH = height - margin.top - margin.bottom;
  const x = scaleLinear({ domain: [lo, lo + span], range: [0, innerW] });
  const y = scaleLinear({
    domain: [0, Math.max(1, ...bins.map((b) => b.count))],
    range: [innerH, 0],
    nice: true,
  });
  return (
    <div className="histogram" data-testid="histogram" data-title={title}>
      <div className="histogram-title">{title}</div>
      <svg width={width} height={height}>
        <Group left={margin.left} top={margin.top}>
          {bins.map((bin, i) => (
            <rect
              key={i}
              className={`bin${rowIds && bin.count > 0 ? ' clickable' : ''}`}
              data-testid="histogram-bin"
              data-count={bin.count}
              x={(i * innerW) / BINS + 0.5}
              width={innerW / BINS - 1}
              y={y(bin.count)}
              height={innerH - y(bin.count)}
              onClick={() => {
                if (!rowIds || bin.count === 0) return;
                patchFilter({ rowIds: [...bin.rows] });
                setView('timeline');
              }}
            >
              <title>{`${bin.count} requests`}</title>
            </rect>
          ))}
          <AxisBottom
            top={innerH}
            scale={x}
            numTicks={4}
            stroke="var(--border)"
            tickStroke="var(--fg-muted)"
            tickLabelProps={{ fill: 'var(--fg-muted)', fontSize: 9, textAnchor: 'middle' }}
          />
          <AxisLeft
            scale={y}
            numTicks={3}
            stroke="var(--border)"
            tickStroke="var(--fg-muted)"
            tickLabelProps={{
              fill: 'var(--fg-muted)',
              fontSize: 9,
              textAnchor: 'end',
              dx: -3,
              dy: 3,
            }}
          />
        </Group>
      </svg>
    </div>
  );
}

function RunningChart({ running }: { running: PerfView['running'] }) {
  const width = 640;
  const height = 150;
  const margin = { top: 8, right: 12, bottom: 24, left: 36 };
  const innerW = width - margin.left - margin.right;
  const innerH = height - margin.top - margin.bottom;
  const end = Math.max(1e-9, ...running.map((p) => p.tSec));
  const peak = Math.max(1, ...running.map((p) => p.running));
  const x = scaleLinear({ domain: [0, end], range: [0, innerW] });
  const y = scaleLinear({ domain: [0, peak], range: [innerH, 0], nice: true });
  let d = `M0,${y(0)}`;
  let prev = 0;
  for (const p of running) {
    d += `L${x(p.tSec)},${y(prev)}L${x(p.tSec)},${y(p.running)}`;
    prev = p.running;
  }
  return (
    <svg width={width} height={height} data-testid="running-chart">
      <Group left={margin.left} top={margin.top}>
        <path d={d} className="running-line" />
        <AxisBottom
          top={innerH}
          scale={x}
          numTicks={6}
          tickFormat={(v) => formatDuration(Number(v))}
          stroke="var(--border)"
          tickStroke="var(--fg-muted)"
          tickLabelProps={{ fill: 'var(--fg-muted)', fontSize: 9, textAnchor: 'middle' }}
        />
        <AxisLeft
          scale={y}
          numTicks={4}
          stroke="var(--border)"
          tickStroke="var(--fg-muted)"
          tickLabelProps={{
            fill: 'var(--fg-muted)',
            fontSize: 9,
            textAnchor: 'end',
            dx: -3,
            dy: 3,
          }}
        />
      </Group>
    </svg>
  );
}
