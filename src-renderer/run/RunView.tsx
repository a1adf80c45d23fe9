import { QueryPanel } from '../query/QueryPanel';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { queryShownRows, type ShownOrder } from '../host/shown-order';
import type { RowView, RunResult } from '../../src-main/core/api/trace-api';
import type { TraceHost } from '../host/trace-host';
import type { RunTab } from './run-store';
import { fileShiftSec, keyOf, runExtent, sampleRows } from './run-model';
import { RunBands } from './RunBands';
import { RunDetails, type RunSelection } from './RunDetails';
import { LaneTimeline, type LaneSelection } from '../timeline/LaneTimeline';
import { shiftRow } from '../timeline/lane-group';
import { fitWindow, type Window } from '../timeline/time-window';
import { useGpuRowDetail } from './use-gpu-detail';
import { timelineClock } from '../timeline/timeline-clock';
import {
  gpuKey,
  laneKeyOf,
  linksBySampleOf,
  parseLaneKey,
  byTrainerOrder,
  runBarCounts,
  runLaneGroups,
  trainerRowsOf,
  runSelectionOf,
  type TrainerRow,
} from './run-lanes';
import { RunProgress } from './RunProgress';
import { RunGpuClocks } from './RunGpuClocks';
import { useViewStore } from '../state/view-store';
import { gpuProfileLanes } from './run-gpu';
import { cancelRun } from './open-run';
import './run.css';
import { distinctTabNames } from '../units/tab-names';
import { countOf } from '../../src-main/core/model/count-of';
import { FIGURE_SORTS, figuresByRow, orderByFigure, type FigureSort } from './sample-figures-order';

/** A run tab: trainer lanes above the sample rows on one clock, joins, staleness, details. */
export function RunView({
  host,
  run,
  onTrends,
}: {
  host: TraceHost;
  run: RunTab;
  /** shows the run's trends (a point per rollout, with its train dumps' and metrics' figures) */
  onTrends?: () => void;
}) {
  if (run.state === 'reading') {
    return (
      <p className="run-status" data-testid="run-reading">
        Opening {run.title}…{' '}
        <button type="button" onClick={() => cancelRun(host, run.id)}>
          Cancel
        </button>
      </p>
    );
  }
  if (run.state === 'failed' || !run.result) {
    return (
      <p className="run-status error">
        Could not open {run.title}: {run.error}
      </p>
    );
  }
  return <RunReady host={host} runId={run.id} result={run.result} onTrends={onTrends} />;
}

function RunReady({
  host,
  runId,
  result,
  onTrends,
}: {
  host: TraceHost;
  runId: string;
  result: RunResult;
  onTrends?: () => void;
}) {
  const [orders, setOrders] = useState<Map<number, ShownOrder>>(new Map());
  const [trainer, setTrainer] = useState<TrainerRow[]>([]);
  const [views, setViews] = useState<Map<string, RowView>>(new Map());
  const [serverViews, setServerViews] = useState<Map<string, RowView>>(new Map());
  const [opened, setOpened] = useState<Set<string>>(new Set());
  /** each GPU profile's rank rows as fetched (seconds from the file's start), by file */
  const [gpuRows, setGpuRows] = useState<Map<number, RowView[]>>(new Map());
  /** where each own-clock GPU profile starts, seconds on the run's clock (set by hand) */
  const [gpuOffsets, setGpuOffsets] = useState<Map<number, number>>(new Map());
  /** GPU rank rows the user opened or closed, against their default (the first ones open) */
  const [gpuToggled, setGpuToggled] = useState<Set<string>>(new Set());
  /** the plot's rows' height: GPU ranks open by default while they fit it, as a file's do */
  const [plotHeight, setPlotHeight] = useState(0);
  const laneHeight = useViewStore((s) => s.laneHeight);
  const [picked, setPicked] = useState<LaneSelection | null>(null);
  const [staleOnly, setStaleOnly] = useState(false);
  /** the Query panel in place of the plot: SQL over every file of the run */
  const [querying, setQuerying] = useState(false);
  const [figureSort, setFigureSort] = useState<FigureSort>('start');
  const [outsideOnly, setOutsideOnly] = useState(false);
  /** the plot's window and width: big GPU rank rows are asked again for it */
  const [plotWindow, setPlotWindow] = useState<{ window: Window; width: number } | null>(null);
  const onPlotWindow = useCallback(
    (window: Window, width: number) => setPlotWindow({ window, width }),
    [],
  );
  const pending = useRef(new Set<string>());
  /** files whose rows are asked for already: a run's state grows, its files never move */
  const asked = useRef(new Set<string>());
  const extent = useMemo(() => runExtent(result), [result]);
  // the run's clock: seconds from its first file's start; a file's rows are moved onto it
  const zeroSec = extent.startSec;
  const shiftOf = useCallback(
    (file: number) => fileShiftSec(result, file, zeroSec),
    [result, zeroSec],
  );

  useEffect(() => {
    const fresh = [...result.files.entries()].filter(
      ([, { file, role }]) =>
        (role === 'samples' || role === 'trainer' || role === 'gpu') &&
        !asked.current.has(file.fileId),
    );
    for (const [, { file }] of fresh) asked.current.add(file.fileId);
    void (async () => {
      for (const [index, { file, role }] of fresh) {
        const order = await queryShownRows(host.api, file.fileId, { sort: 'start' });
        if (role === 'samples') {
          setOrders((old) => new Map(old).set(index, order));
          continue;
        }
        const rows = await host.api.getRows(file.fileId, [...order.rowIds]);
        if (role === 'gpu') {
          // a row per rank: few, all fetched, in the profile's rank order (not by start);
          // placed on the run's clock as they are drawn
          const ranks = [...rows].sort((a, b) => a.rowId - b.rowId);
          setGpuRows((old) => new Map(old).set(index, ranks));
          continue;
        }
        const lanes = trainerRowsOf(index, file, rows, shiftOf(index));
        setTrainer((old) => [...old, ...lanes].sort(byTrainerOrder));
      }
    })();
  }, [host, result, shiftOf]);

  const gpuDetailSettled = useGpuRowDetail({
    host,
    result,
    gpuRows,
    setGpuRows,
    shown: plotWindow,
    shiftOf,
    offsets: gpuOffsets,
  });

  const rows = useMemo(() => sampleRows(result, orders), [result, orders]);
  const figures = useMemo(() => figuresByRow(result), [result]);
  const shown = useMemo(
    () =>
      orderByFigure(
        staleOnly ? rows.filter((r) => r.stale) : rows,
        figures,
        figureSort,
        outsideOnly,
      ),
    [rows, staleOnly, figures, figureSort, outsideOnly],
  );
  // a run may hold 100k samples: their links by row, once
  const linksBySample = useMemo(() => linksBySampleOf(result), [result]);

  const fetchRows = useCallback(
    (wanted: { file: number; rowId: number }[], into: typeof setViews) => {
      const byFile = new Map<number, number[]>();
      for (const r of wanted) {
        const key = `${into === setViews ? 's' : 'v'}:${keyOf(r.file, r.rowId)}`;
        if (pending.current.has(key)) continue;
        pending.current.add(key);
        byFile.set(r.file, [...(byFile.get(r.file) ?? []), r.rowId]);
      }
      for (const [file, rowIds] of byFile) {
        void host.api.getRows(result.files[file].file.fileId, rowIds).then((got) =>
          into((old) => {
            const next = new Map(old);
            for (const v of got) next.set(keyOf(file, v.rowId), shiftRow(v, shiftOf(file)));
            return next;
          }),
        );
      }
    },
    [host, result, shiftOf],
  );
  const needRows = useCallback(
    (keys: string[]) => {
      const samples: { file: number; rowId: number }[] = [];
      const servers: { file: number; rowId: number }[] = [];
      for (const key of keys) {
        const parsed = parseLaneKey(key);
        if (parsed?.kind === 's') samples.push(parsed);
        if (parsed?.kind === 'v') servers.push(parsed);
      }
      if (samples.length > 0) fetchRows(samples, setViews);
      if (servers.length > 0) fetchRows(servers, setServerViews);
    },
    [fetchRows],
  );

  const open = (file: number, rowId: number, on: boolean) =>
    setOpened((old) => {
      const next = new Set(old);
      if (on) next.add(keyOf(file, rowId));
      else next.delete(keyOf(file, rowId));
      return next;
    });
  const toggle = (key: string) => {
    const parsed = parseLaneKey(key);
    if (parsed?.kind === 's')
      open(parsed.file, parsed.rowId, !opened.has(keyOf(parsed.file, parsed.rowId)));
    if (parsed?.kind === 'g')
      setGpuToggled((old) => {
        const next = new Set(old);
        if (next.has(key)) next.delete(key);
        else next.add(key);
        return next;
      });
  };
  const select = (selection: RunSelection | null) =>
    setPicked(selection ? { key: laneKeyOf(selection), index: null } : null);

  // the run's files by name, two of one name told apart by their folders (as tabs are)
  const fileNames = useMemo(() => distinctTabNames(result.files.map(({ file }) => file)), [result]);
  const gpu = useMemo(
    () =>
      [...gpuRows].map(([file, rows]) =>
        gpuProfileLanes({
          file,
          fileName: fileNames[file],
          summary: result.files[file].file,
          rows,
          fileShiftSec: shiftOf(file),
          offsetSec: gpuOffsets.get(file) ?? 0,
          toggled: gpuToggled,
          fit: { height: plotHeight, laneHeight },
        }),
      ),
    [gpuRows, result, fileNames, shiftOf, gpuOffsets, gpuToggled, plotHeight, laneHeight],
  );
  // the legend's counts over every file of the run, not the rows fetched so far
  const barCounts = useMemo(() => runBarCounts(result), [result]);
  const groups = useMemo(
    () =>
      runLaneGroups({
        trainer,
        samples: shown,
        views,
        serverViews,
        linksBySample,
        opened,
        gpu,
        barCounts,
      }),
    [trainer, shown, views, serverViews, linksBySample, opened, gpu, barCounts],
  );
  const setGpuOffset = (file: number, sec: number) =>
    setGpuOffsets((old) => new Map(old).set(file, sec));
  const fit = useMemo(
    () => fitWindow(0, extent.endSec - extent.startSec, 0.01),
    [extent.startSec, extent.endSec],
  );
  const selection = picked ? runSelectionOf(picked.key, picked.index) : null;

  const { counts, trainer: trainerSummary } = result.joins;
  return (
    // the run's own signal for tests and scripts: complete once every file is in (not a count)
    <div
      className="run-view"
      data-testid="run-view"
      data-state={result.complete ? 'complete' : 'opening'}
      data-gpu-detail={gpuDetailSettled ? 'settled' : 'asking'}
    >
      {result.complete ? null : <RunProgress host={host} runId={runId} />}
      <header className="run-header">
        <span data-testid="run-counts">
          {countOf(counts.samples, 'sample')} · {counts.samplesWithServerRequests} joined to{' '}
          {countOf(counts.serverRequests, 'SGLang request')} ·{' '}
          {countOf(counts.serverRequestsWithoutSample, 'request')} without sample ·{' '}
          {countOf(counts.samplesWithoutServerRequest, 'sample')} without request ·{' '}
          {counts.staleSamples} stale
        </span>
        {result.complete ? null : (
          <span className="muted" data-testid="run-joins-partial">
            (joins so far: {countOf(result.pending.length, 'file')} still opening)
          </span>
        )}
        <span className="muted" data-testid="run-trainer-summary">
          trainer: {countOf(trainerSummary.files, 'file')},{' '}
          {countOf(trainerSummary.records, 'record')}
          {trainerSummary.skippedLines > 0 ? `, ${trainerSummary.skippedLines} lines skipped` : ''}
        </span>
        <label className="run-filter">
          <input
            type="checkbox"
            checked={staleOnly}
            data-testid="run-stale-only"
            onChange={(e) => setStaleOnly(e.target.checked)}
          />{' '}
          stale only
        </label>
        {/* a shared report has no SQL engine: it offers no Query */}
        {host.kind !== 'report' && (
          <button
            type="button"
            className={`button small${querying ? ' selected' : ''}`}
            aria-pressed={querying}
            data-testid="run-query"
            onClick={() => setQuerying(!querying)}
          >
            Query
          </button>
        )}
        {onTrends && result.joins.rollouts.length > 0 && (
          <button
            type="button"
            className="button small"
            data-testid="run-trends"
            title="Each rollout's figures across the run, with its train dumps' and request metrics'"
            onClick={onTrends}
          >
            Trends
          </button>
        )}
        {figures.size > 0 ? (
          <>
            <label className="run-filter">
              sort by{' '}
              <select
                data-testid="run-sort"
                value={figureSort}
                onChange={(e) => setFigureSort(e.target.value as FigureSort)}
              >
                {Object.entries(FIGURE_SORTS).map(([key, { label }]) => (
                  <option key={key} value={key}>
                    {label}
                  </option>
                ))}
              </select>
            </label>
            <label className="run-filter">
              <input
                type="checkbox"
                checked={outsideOnly}
                data-testid="run-outside-only"
                onChange={(e) => setOutsideOnly(e.target.checked)}
              />{' '}
              ratio outside [0.5, 2] only
            </label>
          </>
        ) : null}
      </header>
      <RunGpuClocks
        result={result}
        offsets={gpuOffsets}
        onOffset={setGpuOffset}
        drawn={(file) => gpuRows.has(file)}
        onShow={(file) => {
          const first = gpuRows.get(file)?.[0];
          if (first) setPicked({ key: gpuKey(file, first.rowId), index: null });
        }}
      />
      <div className="run-body">
        {querying && (
          <QueryPanel
            fileIds={result.files.map((f) => f.file.fileId)}
            onOpenSample={(file, rowId) => select({ kind: 'sample', file, rowId })}
          />
        )}
        <div className="run-plot" hidden={querying}>
          <LaneTimeline
            groups={groups}
            fit={fit}
            windowKey={`run:${runId}`}
            clock={RUN_CLOCK}
            pictureName="run-timeline"
            decor={(window, width) => (
              <RunBands joins={result.joins} zeroSec={zeroSec} window={window} width={width} />
            )}
            selected={picked}
            onSelect={setPicked}
            onNeedRows={needRows}
            onToggleRow={toggle}
            onViewHeight={setPlotHeight}
            onWindow={onPlotWindow}
            onShiftGroup={(groupId, deltaSec) => {
              const file = Number(groupId.replace(/^gpu-/, ''));
              // moves come faster than renders: each adds to the latest offset
              setGpuOffsets((old) => new Map(old).set(file, (old.get(file) ?? 0) + deltaSec));
            }}
          />
        </div>
        <aside className="run-side">
          <RunDetails
            host={host}
            result={result}
            selection={selection}
            onGoToRequest={(link) => {
              open(link.client.file, link.client.rowId, true);
              select({
                kind: 'server',
                file: link.server.file,
                rowId: link.server.rowId,
                rid: link.rid,
              });
            }}
            onGoToSample={(file, rowId) => {
              setStaleOnly(false);
              select({ kind: 'sample', file, rowId });
            }}
          />
          <Unjoined result={result} onSelect={select} />
          {result.skipped.length > 0 ? (
            <details className="run-skipped">
              <summary>{result.skipped.length} files skipped</summary>
              <ul>
                {result.skipped.map((s) => (
                  <li key={s.path}>
                    {s.path.split(/[/\\]/).pop()}: {s.reason}
                  </li>
                ))}
              </ul>
            </details>
          ) : null}
        </aside>
      </div>
    </div>
  );
}

/** The run's clock: from its start (0:00), never the wall clock. */
const RUN_CLOCK = timelineClock(0, null);

/** How many of each unjoined list are shown: a run of 100k samples without ids would be a list of 100k links. */
const UNJOINED_SHOWN = 200;

/** What did not join, both ways: a click shows it. */
function Unjoined({ result, onSelect }: { result: RunResult; onSelect(s: RunSelection): void }) {
  const { serverRequestsWithoutSample, samplesWithoutServerRequest } = result.joins;
  return (
    <div className="run-unjoined">
      <h4>SGLang requests without a sample ({serverRequestsWithoutSample.length})</h4>
      <ul data-testid="run-orphan-requests">
        {serverRequestsWithoutSample.slice(0, UNJOINED_SHOWN).map((s) => (
          <li key={s.rid}>
            <button
              type="button"
              className="run-link-button"
              onClick={() => onSelect({ kind: 'server', file: s.file, rowId: s.rowId, rid: s.rid })}
            >
              {s.rid.slice(0, 12)}
              {s.error ? ' (aborted)' : ''}
            </button>
          </li>
        ))}
      </ul>
      <MoreNotShown count={serverRequestsWithoutSample.length} />
      <h4>Samples without a request ({samplesWithoutServerRequest.length})</h4>
      <ul data-testid="run-samples-without-request">
        {samplesWithoutServerRequest.slice(0, UNJOINED_SHOWN).map((s) => (
          <li key={keyOf(s.file, s.rowId)}>
            <button
              type="button"
              className="run-link-button"
              onClick={() => onSelect({ kind: 'sample', file: s.file, rowId: s.rowId })}
            >
              rollout {String(s.rolloutId)} sample {String(s.sampleIndex)}: {s.reason}
            </button>
          </li>
        ))}
      </ul>
      <MoreNotShown count={samplesWithoutServerRequest.length} />
    </div>
  );
}

/** Says how many of an unjoined list are not listed (the header counts them all). */
function MoreNotShown({ count }: { count: number }) {
  if (count <= UNJOINED_SHOWN) return null;
  return (
    <p className="muted run-more" data-testid="run-unjoined-more">
      the first {UNJOINED_SHOWN} of {count.toLocaleString('en-US')} listed
    </p>
  );
}
