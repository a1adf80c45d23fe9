import { Suspense, lazy, useMemo, useRef, useState } from 'react';
import type { SqlAnswer, SqlCell } from '../../src-main/core/api/trace-api';
import { useHost } from '../host/host-context';
import { useFilesStore } from '../state/files-store';
import { useViewStore } from '../state/view-store';
import { copyToClipboard } from '../widgets/CopyButton';
import { PictureMenu } from '../picture/PictureMenu';
import { resultTablePng } from './result-picture';
import { EXAMPLE_QUERIES } from './example-queries';
import { ResultTable, type ResultPages } from './ResultTable';
import type { SqlEditorHandle } from './SqlEditor';
import { resultText, sampleColumns } from './result-text';
import './query.css';

/**
 * The editor (CodeMirror: about half the page's code) loads when a Query panel first shows,
 * not with the page: the page's first rows wait for its bundle to be parsed and run.
 */
const SqlEditor = lazy(() => import('./SqlEditor').then((m) => ({ default: m.SqlEditor })));

const PAGE_ROWS = 2000;
let queries = 0;

type Ok = Extract<SqlAnswer, { columns: unknown }>;

/**
 * SQL over these files' tables (docs/sql.md): an editor, examples, run (Ctrl+Enter) and
 * cancel, the result paged into a virtualized table; a result with `row` (and `file`) links
 * each row to its sample, and "Show these samples" filters the timeline to them.
 */
export function QueryPanel({
  fileIds,
  onOpenSample,
  picture,
}: {
  /** the files queried together: `file` k in the tables is fileIds[k] */
  fileIds: string[];
  /**
   * where a row's sample opens (a run tab shows it in its own panel); by default the file's
   * timeline, with "Show these samples" filtering it
   */
  onOpenSample?: (file: number, rowId: number) => void;
  /**
   * the result table's picture name: a Picture menu beside the result's buttons (PNG of the
   * table as shown; a table has no SVG). Without it the panel's host pictures it, if at all.
   */
  picture?: string;
}) {
  const host = useHost();
  const editor = useRef<SqlEditorHandle | null>(null);
  const table = useRef<HTMLDivElement>(null);
  const text = useRef(EXAMPLE_QUERIES[0].sql);
  const [running, setRunning] = useState<string | null>(null);
  const [answer, setAnswer] = useState<SqlAnswer | null>(null);
  const [pages, setPages] = useState<Map<number, SqlCell[][]>>(new Map());
  const [note, setNote] = useState<string | null>(null);

  const run = async () => {
    if (running) return;
    const queryId = `q${Date.now()}-${queries++}`;
    setRunning(queryId);
    setNote(null);
    try {
      const result = await host.api.runSql({ queryId, fileIds, sql: text.current });
      setAnswer(result);
      setPages('error' in result ? new Map() : new Map([[0, result.rows]]));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      setAnswer({ queryId, error: { message, position: null, interrupted: false } });
    } finally {
      setRunning(null);
    }
  };

  const ok = answer && !('error' in answer) ? (answer as Ok) : null;
  const resultPages = useMemo<ResultPages | null>(() => {
    if (!ok) return null;
    const asked = new Set<number>([0]);
    return {
      columns: ok.columns,
      rowCount: ok.rowCount,
      page: (index) => pages.get(index),
      want: (index) => {
        if (asked.has(index)) return;
        asked.add(index);
        void host.api
          .getSqlRows(ok.queryId, index * PAGE_ROWS, PAGE_ROWS)
          .then((rows) => setPages((before) => new Map(before).set(index, rows)));
      },
    };
  }, [ok, pages, host]);

  const allRows = async (result: Ok): Promise<SqlCell[][]> => {
    const rows: SqlCell[][] = [];
    for (let offset = 0; offset < result.rowCount; offset += PAGE_ROWS) {
      const page =
        pages.get(offset / PAGE_ROWS) ??
        (await host.api.getSqlRows(result.queryId, offset, PAGE_ROWS));
      rows.push(...page);
    }
    return rows;
  };

  const link = ok ? sampleColumns(ok.columns) : null;
  const fileIdOf = (row: SqlCell[]) =>
    fileIds[link && link.file >= 0 ? Number(row[link.file]) : 0] ?? null;
  const openSample = (row: SqlCell[]) => {
    const fileId = fileIdOf(row);
    const rowId = Number(row[link!.row]);
    if (fileId === null || !Number.isInteger(rowId)) return;
    if (onOpenSample) {
      onOpenSample(fileIds.indexOf(fileId), rowId);
      return;
    }
    const files = useFilesStore.getState();
    files.setCompare(null);
    files.setActive(fileId);
    const view = useViewStore.getState();
    view.select({ fileId, rowId, index: null });
    view.setDetailsOpen(true);
    view.setView('timeline');
  };
  const showSamples = async () => {
    if (!ok || !link) return;
    const rows = await allRows(ok);
    const fileId = rows.length > 0 ? fileIdOf(rows[0]) : fileIds[0];
    if (fileId === null) return;
    const rowIds = [
      ...new Set(rows.filter((r) => fileIdOf(r) === fileId).map((r) => Number(r[link.row]))),
    ].filter(Number.isInteger);
    const files = useFilesStore.getState();
    files.setCompare(null);
    files.setActive(fileId);
    const view = useViewStore.getState();
    view.setFilter({ rowIds });
    view.setPickedLabel(`${rowIds.length} samples from SQL`);
    view.setView('timeline');
  };
  const copy = async (format: 'csv' | 'tsv') => {
    if (!ok) return;
    const copied = await copyToClipboard(resultText(ok.columns, await allRows(ok), format));
    setNote(copied ? `Copied ${ok.rowCount} rows as ${format.toUpperCase()}` : 'Copy refused');
  };

  const error = answer && 'error' in answer ? answer.error : null;
  return (
    <div className="query-panel" data-testid="query-view">
      <div className="query-bar">
        <button
          type="button"
          className="button primary"
          data-testid="sql-run"
          disabled={running !== null}
          onClick={() => void run()}
          title="Run (Ctrl+Enter)"
        >
          Run
        </button>
        <button
          type="button"
          className="button"
          data-testid="sql-cancel"
          disabled={running === null}
          onClick={() => running && void host.api.cancelSql(running)}
        >
          Cancel
        </button>
        <select
          className="query-examples"
          aria-label="Example queries"
          value=""
          onChange={(e) => {
            const example = EXAMPLE_QUERIES[Number(e.target.value)];
            if (example) editor.current?.setText(example.sql);
          }}
        >
          <option value="">Examples…</option>
          {EXAMPLE_QUERIES.map((q, k) => (
            <option key={q.label} value={k}>
              {q.label}
            </option>
          ))}
        </select>
        <span className="muted query-hint">
          Tables: files, samples, spans, events, pd_phases, server_requests, trainer, perf
        </span>
      </div>
      <Suspense fallback={<div className="sql-editor" />}>
        <SqlEditor
          initial={text.current}
          handle={editor}
          onChange={(t) => (text.current = t)}
          onRun={() => void run()}
        />
      </Suspense>
      <div className="query-status" data-testid="sql-status">
        {running && <span>Running…</span>}
        {ok && !running && (
          <>
            <span>
              {ok.rowCount.toLocaleString()} rows{ok.truncated ? ' (cut: the query had more)' : ''}{' '}
              in {ok.queryMs.toFixed(0)} ms
            </span>
            {link && !onOpenSample && (
              <button
                type="button"
                className="button small"
                data-testid="sql-show-samples"
                onClick={() => void showSamples()}
              >
                Show these samples
              </button>
            )}
            <button type="button" className="button small" onClick={() => void copy('csv')}>
              Copy CSV
            </button>
            <button type="button" className="button small" onClick={() => void copy('tsv')}>
              Copy TSV
            </button>
            {picture && (
              <PictureMenu
                name={picture}
                png={() => resultTablePng(table.current!)}
                command
                testId="query-picture"
              />
            )}
            {link && <span className="muted">Click a row to open its sample</span>}
          </>
        )}
        {note && <span className="muted">{note}</span>}
      </div>
      {error && (
        <div className="query-error" data-testid="sql-error" role="alert">
          <pre>{error.interrupted ? 'Cancelled.' : error.message}</pre>
          {error.position !== null && (
            <button
              type="button"
              className="button small"
              onClick={() => editor.current?.focusAt(error.position!)}
            >
              Go to position {error.position}
            </button>
          )}
        </div>
      )}
      {resultPages && (
        <ResultTable pages={resultPages} onRowClick={link ? openSample : null} boxRef={table} />
      )}
    </div>
  );
}
