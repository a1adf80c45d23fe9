import { useState } from 'react';
import type { FileSummary } from '../../src-main/core/api/trace-api';
import type { GpuRank, IdleGap } from '../../src-main/core/model/gpu-profile';
import { useViewStore } from '../state/view-store';
import { fitWindow } from '../timeline/time-window';
import { KIND_COLOURS, formatPct, formatUs } from './kind-colours';
import { UtilisationStrip } from './UtilisationStrip';
import './gpu-profile.css';
import { ViewPicture } from '../picture/ViewPicture';

/**
 * A GPU profile's figures (HTA's): the ranks side by side (temporal breakdown, overlap,
 * utilisation), the kernel types across ranks, then one rank's top kernels and largest idle
 * gaps; a gap's button shows it on the timeline.
 */
export function GpuProfileView({ file }: { file: FileSummary }) {
  const profile = file.gpuProfile;
  const [picked, setPicked] = useState(0);
  const setView = useViewStore((s) => s.setView);
  const setWindow = useViewStore((s) => s.setWindow);
  if (!profile) return <div className="perf-panel muted">No GPU profile in this file.</div>;
  const rank = profile.ranks[Math.min(picked, profile.ranks.length - 1)];
  const showGap = (gap: IdleGap) => {
    const origin = file.globalStartSec ?? 0;
    // the gap with as much again either side, so its last kernel and the launch are in view
    const span = gap.endSec - gap.startSec;
    setWindow(file.fileId, fitWindow(gap.startSec - origin - span, gap.endSec - origin + span, 0));
    setView('timeline');
  };
  return (
    <ViewPicture
      name={`${file.name}-gpu-profile`}
      className="perf-panel gpu-profile"
      testId="gpu-profile"
    >
      <h3>
        Ranks <span className="muted">HTA's temporal breakdown of each rank's kernel time</span>
      </h3>
      <table className="perf-table gpu-ranks">
        <thead>
          <tr>
            <th>rank</th>
            <th>kernel time</th>
            <th>idle / compute / non-compute</th>
            <th>idle</th>
            <th>compute</th>
            <th>non-compute</th>
            <th title="communication time that overlaps computation">comm/comp overlap</th>
            <th>GPU busy over time</th>
          </tr>
        </thead>
        <tbody>
          {profile.ranks.map((r, i) => (
            <tr
              key={r.traceId}
              className={i === picked ? 'selected' : undefined}
              onClick={() => setPicked(i)}
              data-testid="gpu-rank"
            >
              <td>
                <button type="button" className="linkish" onClick={() => setPicked(i)}>
                  {r.label}
                </button>
              </td>
              <td>{formatUs(r.temporalBreakdown.kernelUs)}</td>
              <td>
                <BreakdownBar rank={r} />
              </td>
              <td>{formatPct(r.temporalBreakdown.idlePct)}</td>
              <td>{formatPct(r.temporalBreakdown.computePct)}</td>
              <td>{formatPct(r.temporalBreakdown.nonComputePct)}</td>
              <td>{formatPct(r.commCompOverlapPct)}</td>
              <td className="gpu-strip-cell">
                <UtilisationStrip utilisation={r.utilisation} label={r.label} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>

      <h3>
        Kernel types <span className="muted">all ranks; time each set of kinds runs</span>
      </h3>
      <table className="perf-table">
        <tbody>
          {profile.kernelTypes.map((t) => (
            <tr key={t.label}>
              <td>
                {t.kinds.map((k) => (
                  <span key={k} className="gpu-swatch" style={{ background: KIND_COLOURS[k] }} />
                ))}{' '}
                {t.label.toLowerCase()}
              </td>
              <td>{formatUs(t.us)}</td>
              <td>{t.pct.toFixed(1)}%</td>
            </tr>
          ))}
        </tbody>
      </table>

      <h3>
        Largest idle gaps on {rank.label}{' '}
        <span className="muted">
          no kernel on any stream; what the CPU was doing just before (click: show on the timeline)
        </span>
      </h3>
      <ol className="gpu-gaps" data-testid="gpu-idle-gaps">
        {rank.idleGaps.map((gap) => (
          <li key={gap.startSec}>
            <button
              type="button"
              className="button small"
              data-testid="gpu-idle-gap"
              onClick={() => showGap(gap)}
            >
              {formatUs(gap.us)}
            </button>{' '}
            <span data-testid="gpu-idle-gap-cause">{gap.text}</span>
            <div className="muted gpu-gap-kernel">then {gap.kernel.name}</div>
          </li>
        ))}
      </ol>

      <h3>
        Top kernels on {rank.label} <span className="muted">by total time</span>
      </h3>
      <table className="perf-table gpu-kernels">
        <thead>
          <tr>
            <th>kernel</th>
            <th>kind</th>
            <th>total</th>
            <th>count</th>
            <th>mean</th>
          </tr>
        </thead>
        <tbody>
          {rank.topKernels.map((k) => (
            <tr key={k.name}>
              <td className="gpu-kernel-name" title={k.name}>
                {k.name}
              </td>
              <td>
                <span className="gpu-swatch" style={{ background: KIND_COLOURS[k.kind] }} />{' '}
                {k.kind}
              </td>
              <td>{formatUs(k.totalUs)}</td>
              <td>{k.count}</td>
              <td>{formatUs(k.meanUs)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {profile.notes.length > 0 && (
        <ul className="muted gpu-notes">
          {profile.notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      )}
    </ViewPicture>
  );
}

/** idle, compute and non-compute as one bar, each its share of the rank's kernel time */
function BreakdownBar({ rank }: { rank: GpuRank }) {
  const t = rank.temporalBreakdown;
  const parts = [
    { key: 'idle', pct: t.idlePct, colour: KIND_COLOURS.idle },
    { key: 'compute', pct: t.computePct, colour: KIND_COLOURS.computation },
    { key: 'non-compute', pct: t.nonComputePct, colour: KIND_COLOURS['non-compute'] },
  ];
  return (
    <div className="gpu-bar" title={parts.map((p) => `${p.key} ${p.pct}%`).join(', ')}>
      {parts.map((p) => (
        <span key={p.key} style={{ width: `${p.pct}%`, background: p.colour }} />
      ))}
    </div>
  );
}
