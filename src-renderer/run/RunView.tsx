import { QueryPanel } from '../query/QueryPanel';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { queryShownRows, type ShownOrder } from '../host/shown-order';
import type { RowView, RunResult } from '../../src-main/core/api/trace-api';
import type { TraceHost } from '../host/trace-host';
import type { RunTab } from './run-store';
import { keyOf, runExtent, sampleRows, type SampleRowRef } from './run-model';
import { RunAxis } from './RunAxis';
import { TrainerLanes, type TrainerRow } from './TrainerLanes';
import { SampleRows } from './SampleRows';
import { RunDetails, type RunSelection } from './RunDetails';
import { useWidth } from './use-width';
import { RunProgress } from './RunProgress';
import { cancelRun } from './open-run';
import './run.css';
import { countOf } from '../../src-main/core/model/count-of';

const LABEL_PX = 150;

/** A run tab: trainer lanes above the sample rows on one clock, joins, staleness, details. */
export function RunView({ host, run }: { host: TraceHost; run: RunTab }) {
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
  return <RunReady host={host} runId={run.id} result={run.result} />;
}

function RunReady({ host, runId, result }: { host: TraceHost; runId: string; result: RunResult }) {
  const [plotRef, plotWidth] = useWidth<HTMLDivElement>();
  const [orders, setOrders] = useState<Map<number, ShownOrder>>(new Map());
  const [trainer, setTrainer] = useState<TrainerRow[]>([]);
  const [views, setViews] = useState<Map<string, RowView>>(new Map());
  const [serverViews, setServerViews] = useState<Map<string, RowView>>(new Map());
  const [expanded, setExpanded] = useState<Set<string>>(new Set());
  const [selection, setSelection] = useState<RunSelection | null>(null);
  const [staleOnly, setStaleOnly] = useState(false);
  /** the Query panel in place of the plot: SQL over every file of the run */
  const [querying, setQuerying] = useState(false);
  const pending = useRef(new Set<string>());
  /** files whose rows are asked for already: a run's state grows, its files never move */
  const asked = useRef(new Set<string>());

  useEffect(() => {
    const fresh = [...result.files.entries()].filter(
      ([, { file, role }]) =>
        (role === 'samples' || role === 'trainer') && !asked.current.has(file.fileId),
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
        const fileName = shortPath(file.path ?? file.name);
        const lanes = rows.map((row) => ({
          file: index,
          fileName,
          originSec: file.globalStartSec ?? 0,
          row,
        }));
        // files come in any order: lanes by file name, so a rank's place does not depend on it
        setTrainer((old) =>
          [...old, ...lanes].sort(
            (a, b) =>
              (a.fileName < b.fileName ? -1 : a.fileName > b.fileName ? 1 : 0) ||
              a.row.rowId - b.row.rowId,
          ),
        );
      }
    })();
  }, [host, result]);

  const rows = useMemo(() => sampleRows(result, orders), [result, orders]);
  const shown = useMemo(() => (staleOnly ? rows.filter((r) => r.stale) : rows), [rows, staleOnly]);
  const extent = useMemo(() => runExtent(result), [result]);
  const scale = { ...extent, width: Math.max(200, plotWidth - LABEL_PX - 16) };

  const needRows = useCallback(
    (wanted: SampleRowRef[]) => {
      const byFile = new Map<number, number[]>();
      for (const r of wanted) {
        const key = keyOf(r.file, r.rowId);
        if (pending.current.has(key)) continue;
        pending.current.add(key);
        byFile.set(r.file, [...(byFile.get(r.file) ?? []), r.rowId]);
      }
      for (const [file, rowIds] of byFile) {
        void host.api.getRows(result.files[file].file.fileId, rowIds).then((got) =>
          setViews((old) => {
            const next = new Map(old);
            for (const v of got) next.set(keyOf(file, v.rowId), v);
            return next;
          }),
        );
      }
    },
    [host, result],
  );

  const loadServer = useCallback(
    (file: number, rowId: number) => {
      const key = keyOf(file, rowId);
      if (pending.current.has(`server:${key}`)) return;
      pending.current.add(`server:${key}`);
      void host.api.getRows(result.files[file].file.fileId, [rowId]).then(([v]) => {
        if (v) setServerViews((old) => new Map(old).set(key, v));
      });
    },
    [host, result],
  );

  const expand = (file: number, rowId: number, open: boolean) => {
    const key = keyOf(file, rowId);
    setExpanded((old) => {
      const next = new Set(old);
      if (open) next.add(key);
      else next.delete(key);
      return next;
    });
    if (open) {
      for (const l of result.joins.links) {
        if (l.client.file === file && l.client.rowId === rowId)
          loadServer(l.server.file, l.server.rowId);
      }
    }
  };

  const { counts, trainer: trainerSummary } = result.joins;
  const selectedKey = selection?.kind === 'sample' ? keyOf(selection.file, selection.rowId) : null;
  return (
    <div className="run-view" data-testid="run-view">
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
        <button
          type="button"
          className={`button small${querying ? ' selected' : ''}`}
          aria-pressed={querying}
          data-testid="run-query"
          onClick={() => setQuerying(!querying)}
        >
          Query
        </button>
      </header>
      <div className="run-body">
        {querying && (
          <QueryPanel
            fileIds={result.files.map((f) => f.file.fileId)}
            onOpenSample={(file, rowId) => setSelection({ kind: 'sample', file, rowId })}
          />
        )}
        <div className="run-plot" ref={plotRef} hidden={querying}>
          <div className="run-axis-row">
            <div className="run-label" style={{ width: LABEL_PX }}>
              {result.files.length} files
            </div>
            <RunAxis scale={scale} joins={result.joins} />
          </div>
          <TrainerLanes
            rows={trainer}
            scale={scale}
            labelWidth={LABEL_PX}
            onSelect={(t, index) =>
              setSelection({ kind: 'trainer', file: t.file, rowId: t.row.rowId, index })
            }
          />
          <SampleRows
            result={result}
            rows={shown}
            scale={scale}
            labelWidth={LABEL_PX}
            views={views}
            serverViews={serverViews}
            selectedKey={selectedKey}
            expanded={expanded}
            onNeedRows={needRows}
            onSelect={(r) => setSelection({ kind: 'sample', file: r.file, rowId: r.rowId })}
            onToggle={(r) => expand(r.file, r.rowId, !expanded.has(keyOf(r.file, r.rowId)))}
            onOpenRequest={(link) =>
              setSelection({
                kind: 'server',
                file: link.server.file,
                rowId: link.server.rowId,
                rid: link.rid,
              })
            }
          />
        </div>
        <aside className="run-side">
          <RunDetails
            host={host}
            result={result}
            selection={selection}
            onGoToRequest={(link) => {
              expand(link.client.file, link.client.rowId, true);
              setSelection({
                kind: 'server',
                file: link.server.file,
                rowId: link.server.rowId,
                rid: link.rid,
              });
            }}
            onGoToSample={(file, rowId) => {
              setStaleOnly(false);
              setSelection({ kind: 'sample', file, rowId });
            }}
          />
          <Unjoined result={result} onSelect={setSelection} />
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

/** The last two parts of a path: `comm_timeline/slime-trainer-0.jsonl`. */
function shortPath(path: string): string {
  return path.split(/[/\\]/).slice(-2).join('/');
}
