import { QueryPanel } from '../query/QueryPanel';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { CompareResult, FileSummary, PerfDigest } from '../../src-main/core/api/trace-api';
import type { TraceHost } from '../host/trace-host';
import { PerfDiffTable } from './PerfDiffTable';
import { TimeBreakdown } from './TimeBreakdown';
import { OverlaidDistribution } from './OverlaidDistribution';
import { StragglerChart } from './StragglerChart';
import { MatchedSamples } from './MatchedSamples';
import { CompareTimelines, type PickedRows } from './CompareTimelines';
import { CompareAnswer } from './CompareAnswer';
import { WallTimeTable } from './WallTimeTable';
import { showRowsOf } from './show-rows';
import { useFilesStore } from '../state/files-store';
import { useViewStore } from '../state/view-store';
import './compare.css';
import { PictureMenu } from '../picture/PictureMenu';

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
  const pictureRoot = useRef<HTMLDivElement>(null);
  const [result, setResult] = useState<CompareResult | null>(null);
  const [perf, setPerf] = useState<[PerfDigest, PerfDigest] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [tab, setTab] = useState<Tab>('perf');
  // the answer folds to its first line (the timelines need the height); unfolded until asked
  const [answerFolded, setAnswerFolded] = useState(false);
  const [picked, setPicked] = useState<PickedRows | null>(null);
  // a figure that names rows: shown and selected in the compared timelines, compare stays open;
  // with Ctrl/Cmd or Shift, that file's own tab with exactly those rows (as before)
  const showRows = (side: 'a' | 'b', rowIds: number[], label: string, event: React.MouseEvent) => {
    const file = side === 'a' ? fileA : fileB;
    if (event.ctrlKey || event.metaKey || event.shiftKey) {
      showRowsOf(file, rowIds, label);
      return;
    }
    setPicked({ side, rowIds, label });
    setTab('timelines');
    setAnswerFolded(true);
    if (rowIds.length > 0)
      useViewStore.getState().select({ fileId: file.fileId, rowId: rowIds[0], index: null });
  };
  // B becomes A: the active file and the one compared with trade places
  const swap = () => {
    const files = useFilesStore.getState();
    files.setActive(fileB.fileId);
    files.setCompare(fileA.fileId);
  };

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
    <div className="compare-view" data-testid="compare-view" ref={pictureRoot}>
      <div className="compare-header">
        <span className="compare-side a">A</span>
        <span className="compare-file">{fileA.name}</span>
        <span className="compare-vs">vs</span>
        <span className="compare-side b">B</span>
        <span className="compare-file">{fileB.name}</span>
        <button
          type="button"
          className="button small"
          onClick={swap}
          data-testid="swap-compare"
          title="Swap A and B"
        >
          ⇄ Swap
        </button>
        <nav className="compare-tabs" role="tablist">
          {/* a shared report has no SQL engine: its compare offers no Query tab */}
          {TABS.filter(([id]) => id !== 'query' || host.kind !== 'report').map(([id, label]) => (
            <button
              key={id}
              type="button"
              role="tab"
              aria-selected={tab === id}
              className={`button small${tab === id ? ' selected' : ''}`}
              onClick={() => {
                setTab(id);
                // the timelines want the height: the answer folds to its first line there
                if (id === 'timelines') setAnswerFolded(true);
              }}
            >
              {label}
            </button>
          ))}
        </nav>
        {/* in the header's row: the compare view is a column, a corner of its own would be a row */}
        <PictureMenu
          name={`${fileA.name}-vs-${fileB.name}`}
          target={pictureRoot}
          command
          testId="view-picture"
        />
        <button type="button" className="button small" onClick={onExit} data-testid="exit-compare">
          Exit compare
        </button>
      </div>
      {error && (
        <div className="error-banner" data-testid="compare-error">
          Cannot compare: {error}
        </div>
      )}
      {result && (
        <div
          className={`compare-answer-fold${answerFolded ? ' folded' : ''}`}
          data-testid="compare-answer-fold"
          data-folded={answerFolded}
        >
          <button
            type="button"
            className="compare-answer-toggle"
            data-testid="compare-answer-toggle"
            aria-expanded={!answerFolded}
            title={answerFolded ? 'Show the whole answer' : 'Fold the answer to one line'}
            onClick={() => setAnswerFolded(!answerFolded)}
          >
            {answerFolded ? '▸' : '▾'}
          </button>
          <CompareAnswer result={result} fileA={fileA} fileB={fileB} onShowRows={showRows} />
        </div>
      )}
      {tab === 'timelines' && (
        <CompareTimelines
          host={host}
          fileA={fileA}
          fileB={fileB}
          picked={picked}
          onClearPicked={() => setPicked(null)}
        />
      )}
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
