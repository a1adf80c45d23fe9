import { useMemo } from 'react';
import type { CompareResult, FileSummary, RowView } from '../../src-main/core/api/trace-api';
import { useRowPage } from '../host/data-hooks';
import { formatSeconds } from './format-number';
import { useVisibleWindow } from './use-visible-window';

/** a table row's height, fixed so that the rows in view follow from the scroll position */
const ROW_PX = 25;
/** rows fetched beyond the visible ones either side, so a scroll rarely shows a blank */
const MARGIN = 20;

/**
 * Samples that correspond across A and B, side by side (biggest change in duration first),
 * and those only one side has. 100k pairs: only the rows in view are in the page, and only
 * theirs are fetched.
 */
export function MatchedSamples({
  fileA,
  fileB,
  result,
}: {
  fileA: FileSummary;
  fileB: FileSummary;
  result: CompareResult;
}) {
  const { matched, onlyA, onlyB } = result;
  return (
    <div className="matched" data-testid="matched-samples">
      <p className="muted" data-testid="match-counts">
        {matched.aRowIds.length} matched · {onlyA.length} only in A · {onlyB.length} only in B ·
        matched by {result.matchedBy}
        {result.matchedBy === 'index'
          ? ' (A and B hold the same prompts)'
          : ' (the prompts differ, so an index means nothing across A and B)'}
      </p>
      {matched.aRowIds.length > 0 && <PairTable fileA={fileA} fileB={fileB} result={result} />}
      {onlyA.length > 0 && <OnlyList side="A" file={fileA} rowIds={onlyA} />}
      {onlyB.length > 0 && <OnlyList side="B" file={fileB} rowIds={onlyB} />}
    </div>
  );
}

function PairTable({
  fileA,
  fileB,
  result,
}: {
  fileA: FileSummary;
  fileB: FileSummary;
  result: CompareResult;
}) {
  const { aRowIds, bRowIds, byDurationChange } = result.matched;
  // both sides' row ids in the table's order, once: what the row pages fetch by position
  const [shownA, shownB] = useMemo(
    () => [byDurationChange.map((k) => aRowIds[k]), byDurationChange.map((k) => bRowIds[k])],
    [aRowIds, bRowIds, byDurationChange],
  );
  const view = useVisibleWindow(shownA.length, ROW_PX);
  const rowsA = useRowPage(fileA.fileId, shownA, view.first, view.last, MARGIN).rows;
  const rowsB = useRowPage(fileB.fileId, shownB, view.first, view.last, MARGIN).rows;
  const positions = range(view.first, view.last);
  return (
    <div
      className="matched-scroll"
      data-testid="matched-pairs"
      ref={view.ref}
      onScroll={view.onScroll}
    >
      <table className="diff-table matched-table">
        <thead>
          <tr>
            <th>Matched by</th>
            <th>A sample</th>
            <th>A duration</th>
            <th>B sample</th>
            <th>B duration</th>
            <th>Δ</th>
          </tr>
        </thead>
        <tbody>
          <tr style={{ height: view.abovePx }} aria-hidden="true" />
          {positions.map((at) => {
            const a = rowsA.get(shownA[at]);
            const b = rowsB.get(shownB[at]);
            const durA = a ? a.endSec - a.startSec : NaN;
            const durB = b ? b.endSec - b.startSec : NaN;
            const delta = durB - durA;
            return (
              <tr
                key={at}
                data-testid="matched-pair"
                className={`pair${delta > 0 ? ' verdict-worse' : delta < 0 ? ' verdict-better' : ''}`}
              >
                <td className="muted">
                  {result.matchedBy === 'index'
                    ? `index ${String(a?.sampleIndex ?? '')}`
                    : 'group and prompt'}
                </td>
                <td>{sampleText(a, shownA[at])}</td>
                <td className="num">{formatSeconds(durA)}</td>
                <td>{sampleText(b, shownB[at])}</td>
                <td className="num">{formatSeconds(durB)}</td>
                <td className="num change">{formatSeconds(delta)}</td>
              </tr>
            );
          })}
          <tr style={{ height: view.belowPx }} aria-hidden="true" />
        </tbody>
      </table>
    </div>
  );
}

function OnlyList({
  side,
  file,
  rowIds,
}: {
  side: 'A' | 'B';
  file: FileSummary;
  rowIds: Int32Array;
}) {
  const view = useVisibleWindow(rowIds.length, ROW_PX);
  const rows = useRowPage(file.fileId, rowIds, view.first, view.last, MARGIN).rows;
  return (
    <div data-testid={`only-${side.toLowerCase()}`}>
      <h4>Only in {side}</h4>
      <div className="matched-scroll only-list" ref={view.ref} onScroll={view.onScroll}>
        <div style={{ height: view.abovePx }} />
        {range(view.first, view.last).map((at) => {
          const row = rows.get(rowIds[at]);
          return (
            <div key={at} className="only-row" data-testid="only-row">
              #{String(row?.sampleIndex ?? rowIds[at])} {row?.source ?? ''} {row?.status ?? ''}
            </div>
          );
        })}
        <div style={{ height: view.belowPx }} />
      </div>
    </div>
  );
}

/** `#<sample index> <status>`, the row id until the row is fetched */
function sampleText(row: RowView | undefined, rowId: number): string {
  return `#${String(row?.sampleIndex ?? rowId)} ${row?.status ?? ''}`;
}

function range(first: number, last: number): number[] {
  return last < first ? [] : Array.from({ length: last - first + 1 }, (_, i) => first + i);
}
