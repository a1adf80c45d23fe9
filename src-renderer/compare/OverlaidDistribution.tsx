import { useEffect, useMemo, useState } from 'react';
import { scaleLinear } from '@visx/scale';
import { Group } from '@visx/group';
import { ChartAxes } from '../perf/ChartAxes';
import type { PerfDigest, PerfDistributionId, SharedBins } from '../../src-main/core/api/trace-api';
import type { TraceHost } from '../host/trace-host';
import { formatSeconds } from './format-number';
import { ChartPicture } from '../picture/ChartPicture';

const WIDTH = 720;
const HEIGHT = 280;
const MARGIN = { top: 12, right: 16, bottom: 36, left: 48 };
const EMPTY: SharedBins = {
  edges: [],
  a: [],
  b: [],
  countA: 0,
  countB: 0,
  meanA: NaN,
  meanB: NaN,
};

/**
 * Durations of one span name (or a per-request series) in A and B, overlaid on shared bins: the
 * service bins both files' values (comparePerfDistribution), only the bins cross to the page.
 */
export function OverlaidDistribution({
  host,
  fileIdA,
  fileIdB,
  perfA,
  perfB,
  names,
}: {
  host: TraceHost;
  fileIdA: string;
  fileIdB: string;
  perfA: PerfDigest;
  perfB: PerfDigest;
  names: string[];
}) {
  const choices = useMemo(() => {
    const series = [
      ...new Set([...perfA.series.map((s) => s.key), ...perfB.series.map((s) => s.key)]),
    ];
    return [
      ...names.map((n) => ({ id: `span:${n}`, label: n })),
      ...series.map((k) => ({ id: `series:${k}`, label: k })),
    ];
  }, [perfA, perfB, names]);
  const [chosen, setChosen] = useState(choices[0]?.id ?? '');
  const [shared, setShared] = useState<{ id: string; bins: SharedBins } | null>(null);
  useEffect(() => {
    if (!chosen) return;
    let live = true;
    const cut = chosen.indexOf(':');
    const distribution: PerfDistributionId = {
      kind: chosen.slice(0, cut) === 'span' ? 'duration' : 'series',
      name: chosen.slice(cut + 1),
    };
    void host.api
      .comparePerfDistribution(fileIdA, fileIdB, distribution)
      .then((bins) => live && setShared({ id: chosen, bins }));
    return () => {
      live = false;
    };
  }, [host, fileIdA, fileIdB, chosen]);
  const bins = shared?.bins ?? EMPTY;
  const innerW = WIDTH - MARGIN.left - MARGIN.right;
  const innerH = HEIGHT - MARGIN.top - MARGIN.bottom;
  const x = scaleLinear({
    domain: [bins.edges[0] ?? 0, bins.edges.at(-1) ?? 1],
    range: [0, innerW],
  });
  const y = scaleLinear({
    domain: [0, Math.max(1, ...bins.a, ...bins.b)],
    range: [innerH, 0],
    nice: true,
  });
  const isSeconds = chosen.startsWith('span:') || /latency|queue|duration/.test(chosen);

  return (
    <ChartPicture name={'distribution'}>
      <div className="distribution" data-testid="distribution-view">
        <label>
          Distribution of{' '}
          <select
            value={chosen}
            onChange={(e) => setChosen(e.target.value)}
            data-testid="distribution-select"
          >
            {choices.map((c) => (
              <option key={c.id} value={c.id}>
                {c.label}
              </option>
            ))}
          </select>
        </label>
        <div
          className="distribution-stats"
          data-testid="distribution-stats"
          data-ready={shared?.id === chosen}
        >
          <span className="compare-side a">A</span> n={bins.countA}, mean{' '}
          {isSeconds ? formatSeconds(bins.meanA) : bins.meanA.toFixed(3)}
          <span className="compare-side b">B</span> n={bins.countB}, mean{' '}
          {isSeconds ? formatSeconds(bins.meanB) : bins.meanB.toFixed(3)}
        </div>
        <svg width={WIDTH} height={HEIGHT} role="img" aria-label="Overlaid histograms of A and B">
          <Group left={MARGIN.left} top={MARGIN.top}>
            {bins.a.map((count, i) => {
              const x0 = x(bins.edges[i]);
              const w = Math.max(1, x(bins.edges[i + 1]) - x0 - 1);
              return (
                <g key={i}>
                  <rect
                    className="hist-a"
                    x={x0}
                    width={w}
                    y={y(count)}
                    height={innerH - y(count)}
                  />
                  <rect
                    className="hist-b"
                    x={x0}
                    width={w}
                    y={y(bins.b[i])}
                    height={innerH - y(bins.b[i])}
                  />
                </g>
              );
            })}
            <ChartAxes
              innerH={innerH}
              x={x}
              y={y}
              xTicks={8}
              xFormat={(v) => (isSeconds ? formatSeconds(v) : String(v))}
              yTicks={5}
              size="normal"
            />
          </Group>
        </svg>
      </div>
    </ChartPicture>
  );
}
