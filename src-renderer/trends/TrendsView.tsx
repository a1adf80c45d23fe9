import { useMemo, useState } from 'react';
import type { TraceHost } from '../host/trace-host';
import { useHost } from '../host/host-context';
import type { TrendPoint } from '../../src-main/core/model/trend';
import { useTrendsStore, type TrendSet } from '../state/trends-store';
import { useFilesStore } from '../state/files-store';
import { openSources } from '../opening/open-files';
import { TrendChart } from './TrendChart';
import {
  DEFAULT_METRICS,
  availableMetrics,
  chartFromZero,
  metricLabel,
  metricNote,
  withExtraFigures,
} from './trend-metrics';
import { TrendsRunTable } from './TrendsRunTable';
import { baseName } from './open-trends';
import './trends.css';
import { ViewPicture } from '../picture/ViewPicture';

/**
 * A run's rollouts as trends: the user picks figures; each is a chart with one dot per dump;
 * a click opens that rollout, two picked ones compare side by side.
 */
export function TrendsView({ set }: { set: TrendSet }) {
  const host = useHost();
  // the run's figures (train dumps, request metrics) among each point's own
  const shown = useMemo(() => (set.result ? withExtraFigures(set.result) : null), [set.result]);
  const points = useMemo(() => shown?.points ?? [], [shown]);
  const groups = useMemo(() => availableMetrics(points), [points]);
  const available = useMemo(() => new Set(groups.flatMap((g) => g.keys)), [groups]);
  const [chosen, setChosen] = useState<string[] | null>(null);
  const selected = (chosen ?? DEFAULT_METRICS).filter((key) => available.has(key));
  const [picked, setPicked] = useState<TrendPoint[]>([]);

  const toggleMetric = (key: string) =>
    setChosen((current) => {
      const list = current ?? DEFAULT_METRICS.filter((k) => available.has(k));
      return list.includes(key) ? list.filter((k) => k !== key) : [...list, key];
    });
  const pick = (point: TrendPoint) =>
    setPicked((current) =>
      current.some((p) => p.path === point.path)
        ? current.filter((p) => p.path !== point.path)
        : [...current, point].slice(-2),
    );
  // a new file leaves the trends when its first rows show (App: a file made active does), not
  // when it is whole: a user back on the trends by then stays there
  const openRollout = (point: TrendPoint) => void openPath(host, point.path);
  const compare = async () => {
    const [a, b] = picked;
    const fileA = await openPath(host, a.path);
    const fileB = await openPath(host, b.path);
    if (!fileA || !fileB) return;
    useFilesStore.getState().setActive(fileA);
    useFilesStore.getState().setCompare(fileB);
    useTrendsStore.getState().setActive(null);
  };

  if (set.state === 'reading') return <TrendsProgress set={set} />;
  if (set.state !== 'ready' || !shown) {
    return (
      <div className="trends-view" data-testid="trends-view">
        <p className="trends-error">{set.state === 'cancelled' ? 'Cancelled.' : set.error}</p>
      </div>
    );
  }
  const result = shown;
  const rollouts = points.filter((p) => p.series === 'rollout').length;
  return (
    <ViewPicture name={`${set.title}-trends`} className="trends-view" testId="trends-view">
      <header className="trends-header">
        <h2>{set.title}</h2>
        <span className="muted" data-testid="trends-counts">
          {rollouts} rollouts · {points.length - rollouts} evals
          {result.cached > 0 && ` · ${result.cached} from the cache`}
        </span>
        <span className="trends-legend muted">
          <span className="swatch rollout" /> rollouts <span className="swatch eval" /> evals ·
          click a dot to open it, shift+click two to compare
        </span>
        {picked.length > 0 && (
          <span className="trends-picked" data-testid="trends-picked">
            picked {picked.map((p) => p.name).join(' and ')}
            {picked.length === 2 && (
              <button
                type="button"
                className="button small"
                onClick={() => void compare()}
                data-testid="trends-compare"
              >
                Compare
              </button>
            )}
            <button type="button" className="button small" onClick={() => setPicked([])}>
              Clear
            </button>
          </span>
        )}
      </header>
      {(result.incomplete.length > 0 || result.skipped.length > 0) && (
        <div className="trends-notices" data-testid="trends-notices">
          {result.incomplete.map((i) => (
            <div key={i.path} className="trends-incomplete">
              {baseName(i.path)}: incomplete, {i.message}
            </div>
          ))}
          {result.skipped.length > 0 && (
            <details>
              <summary>
                {result.skipped.length} {result.skipped.length === 1 ? 'file' : 'files'} skipped
                (not rollout dumps)
              </summary>
              {result.skipped.map((s) => (
                <div key={s.path}>
                  {baseName(s.path)}: {s.reason}
                </div>
              ))}
            </details>
          )}
        </div>
      )}
      <TrendsRunTable points={points} units={result.units} onOpen={openRollout} />
      <div className="trends-body">
        <aside className="trends-metrics" data-testid="trend-metric-picker">
          {groups.map(({ group, keys }) => (
            <fieldset key={group}>
              <legend>{group}</legend>
              {keys.map((key) => (
                <label key={key} title={key}>
                  <input
                    type="checkbox"
                    checked={selected.includes(key)}
                    onChange={() => toggleMetric(key)}
                    data-testid="trend-metric"
                    data-metric={key}
                  />
                  {metricLabel(key)}
                </label>
              ))}
            </fieldset>
          ))}
        </aside>
        <section className="trends-charts">
          {selected.map((key) => (
            <TrendChart
              key={key}
              metric={key}
              label={metricLabel(key)}
              unit={result.units[key] ?? ''}
              points={points}
              picked={picked.map((p) => p.path)}
              onOpen={openRollout}
              onPick={pick}
              note={(point) => metricNote(key, point)}
              fromZero={chartFromZero(key)}
            />
          ))}
          {selected.length === 0 && <p className="muted">Pick figures on the left.</p>}
        </section>
      </div>
    </ViewPicture>
  );
}

function TrendsProgress({ set }: { set: TrendSet }) {
  const host = useHost();
  const files = Object.values(set.files);
  const done = files.filter((f) => f.state !== 'reading').length;
  return (
    <div className="trends-view" data-testid="trends-view">
      <header className="trends-header">
        <h2>{set.title}</h2>
        <span className="muted" data-testid="trends-reading">
          reading rollout dumps: {done} of {files.length} done
        </span>
        <button
          type="button"
          className="button small"
          data-testid="trends-cancel"
          onClick={() => void host.api.cancelOpen(set.id)}
        >
          Cancel
        </button>
      </header>
      <ul className="trends-progress">
        {files.map((f) => (
          <li key={f.path}>
            <span>{baseName(f.path)}</span>
            <progress
              max={Math.max(1, f.bytesTotal)}
              value={f.state === 'reading' ? f.bytesRead : f.bytesTotal}
            />
            <span className="muted">{f.state}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** A rollout of the run as a file tab (reusing one already open). */
async function openPath(host: TraceHost, path: string): Promise<string | null> {
  const open = useFilesStore.getState().files.find((f) => f.path === path);
  if (open) {
    useFilesStore.getState().setActive(open.fileId);
    // already the active file: making it active again changes nothing, so leave the trends here
    useTrendsStore.getState().setActive(null);
    return open.fileId;
  }
  return openSources(host, [{ kind: 'path', path }], baseName(path), 0);
}
