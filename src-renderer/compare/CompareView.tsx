import { QueryPanel } from '../query/QueryPanel';
import { useEffect, useMemo, useState } from 'react';
import type { CompareResult, FileSummary, PerfDigest } from '../../src-main/core/api/trace-api';
import type { TraceHost } from '../host/trace-host';
import { PerfDiffTable } from './PerfDiffTable';
import { TimeBreakdown } from './TimeBreakdown';
import { OverlaidDistribution } from './OverlaidDistribution';
import { StragglerChart } from './StragglerChart';
import { MatchedSamples } from './MatchedSamples';
import { CompareTimelines } from './CompareTimelines';
import { CompareAnswer } from './CompareAnswer';
import { WallTimeTable } from './WallTimeTable';
import './compare.css';

type Tab =
  'timelines' | 'perf' | 'wall' | 'time' | 'distributions' | 'stragglers' | 'samples' | 'query';
const TABS: [Tab, string][] = [
  ['timelines', 'Timelines'],
  ['perf', 'Perf differences'],
  ['wall', 'Where the time went'],
  ['time', 'Span totals'],
  ['distributions', 'Distributions'],
  ['stragglers', 'Stragglers'],
  ['samples', 'Matched samples'],
  ['query', 'Query'],
];

/** Two rollouts side by side: did B get faster, and where did the time move? */
export function CompareView({
  host,
  fileA,
  fileB,
  onExit,
}: {
  host: TraceHost;
  fileA: FileSummary;
  fileB: FileSummary;
  onExit: () => void;
}) {
  const [result, setResult] = useState<CompareResult | null>(null);
  const [perf, setPerf] = useState<[PerfDigest, PerfDigest] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [tab, setTab] = useState<Tab>('perf');

  useEffect(() => {
    let live = true;
    setError(null);
    Promise.all([
      host.api.compare(fileA.fileId, fileB.fileId),
      host.api.getPerf(fileA.fileId),
      host.api.getPerf(fileB.fileId),
    ]).then(
      ([compared, perfA, perfB]) => {
        if (!live) return;
        setResult(compared);
        setPerf([perfA, perfB]);
      },
      (failure: unknown) =>
        live && setError(failure instanceof Error ? failure.message : String(failure)),
    );
    return () => {
      live = false;
    };
    // files shown while they are read are compared once they are whole (streaming ends)
  }, [host, fileA.fileId, fileB.fileId, fileA.streaming, fileB.streaming]);

  const spanNames = useMemo(() => {
    if (!perf) return [];
    const names = new Set([
      ...perf[0].durations.map((d) => d.name),
      ...perf[1].durations.map((d) => d.name),
    ]);
    return [...names];
  }, [perf]);

  return (
    <div className="compare-view" data-testid="compare-view">
      <div className="compare-header">
        <span className="compare-side a">A</span>
        <span className="compare-file">{fileA.name}</span>
        <span className="compare-vs">vs</span>
        <span className="compare-side b">B</span>
        <span className="compare-file">{fileB.name}</span>
        <nav className="compare-tabs" role="tablist">
          {TABS.map(([id, label]) => (
            <button
              key={id}
              type="button"
              role="tab"
              aria-selected={tab === id}
              className={`button small${tab === id ? ' selected' : ''}`}
              onClick={() => setTab(id)}
            >
              {label}
            </button>
          ))}
        </nav>
        <button type="button" className="button small" onClick={onExit} data-testid="exit-compare">
          Exit compare
        </button>
      </div>
      {error && (
        <div className="error-banner" data-testid="compare-error">
          Cannot compare: {error}
        </div>
      )}
      {result && <CompareAnswer result={result} fileA={fileA} fileB={fileB} />}
      {tab === 'timelines' && <CompareTimelines host={host} fileA={fileA} fileB={fileB} />}
      {tab === 'query' && <QueryPanel fileIds={[fileA.fileId, fileB.fileId]} />}
      {result && perf && tab !== 'timelines' && (
        <div className="compare-body">
          {tab === 'perf' && <PerfDiffTable result={result} fileA={fileA} fileB={fileB} />}
          {tab === 'wall' && <WallTimeTable result={result} fileA={fileA} fileB={fileB} />}
          {tab === 'time' && <TimeBreakdown result={result} />}
          {tab === 'distributions' && (
            <OverlaidDistribution
              host={host}
              fileIdA={fileA.fileId}
              fileIdB={fileB.fileId}
              perfA={perf[0]}
              perfB={perf[1]}
              names={spanNames}
            />
          )}
          {tab === 'stragglers' && (
            <StragglerChart
              host={host}
              fileA={fileA}
              fileB={fileB}
              runningA={perf[0].running}
              runningB={perf[1].running}
            />
          )}
          {tab === 'samples' && <MatchedSamples fileA={fileA} fileB={fileB} result={result} />}
        </div>
      )}
    </div>
  );
}
