import { useEffect, useMemo, useState } from 'react';
import type { CompareResult, FileSummary, RowView } from '../../src-main/core/api/trace-api';
import type { TraceHost } from '../host/trace-host';
import { formatSeconds } from './format-number';

/** Samples that correspond across A and B, side by side, and those only one side has. */
export function MatchedSamples({
  host,
  fileA,
  fileB,
  result,
}: {
  host: TraceHost;
  fileA: FileSummary;
  fileB: FileSummary;
  result: CompareResult;
}) {
  const [rowsA, setRowsA] = useState<Map<number, RowView>>(new Map());
  const [rowsB, setRowsB] = useState<Map<number, RowView>>(new Map());
  useEffect(() => {
    let live = true;
    const idsA = [...result.matched.map((m) => m.aRowId), ...result.onlyA];
    const idsB = [...result.matched.map((m) => m.bRowId), ...result.onlyB];
    void Promise.all([
      host.api.getRows(fileA.fileId, idsA),
      host.api.getRows(fileB.fileId, idsB),
    ]).then(([a, b]) => {
      if (!live) return;
      setRowsA(new Map(a.map((r) => [r.rowId, r])));
      setRowsB(new Map(b.map((r) => [r.rowId, r])));
    });
    return () => {
      live = false;
    };
  }, [host, fileA.fileId, fileB.fileId, result]);

  const pairs = useMemo(
    () =>
      result.matched
        .map((m) => {
          const a = rowsA.get(m.aRowId);
          const b = rowsB.get(m.bRowId);
          const durA = a ? a.endSec - a.startSec : NaN;
          const durB = b ? b.endSec - b.startSec : NaN;
          return { ...m, a, b, durA, durB, delta: durB - durA };
        })
        .sort((x, y) => Math.abs(y.delta || 0) - Math.abs(x.delta || 0)),
    [result, rowsA, rowsB],
  );

  return (
    <div className="matched" data-testid="matched-samples">
      <p className="muted" data-testid="match-counts">
        {result.matched.length} matched · {result.onlyA.length} only in A · {result.onlyB.length}{' '}
        only in B · matched by {result.matchedBy}
        {result.matchedBy === 'index'
          ? ' (A and B hold the same prompts)'
          : ' (the prompts differ, so an index means nothing across A and B)'}
      </p>
      <table className="diff-table">
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
          {pairs.map((p) => (
            <tr
              key={`${p.aRowId}-${p.bRowId}`}
              data-testid="matched-pair"
              className={p.delta > 0 ? 'verdict-worse' : p.delta < 0 ? 'verdict-better' : ''}
            >
              <td className="muted">{p.key}</td>
              <td>
                #{String(p.a?.sampleIndex ?? p.aRowId)} {p.a?.status ?? ''}
              </td>
              <td className="num">{formatSeconds(p.durA)}</td>
              <td>
                #{String(p.b?.sampleIndex ?? p.bRowId)} {p.b?.status ?? ''}
              </td>
              <td className="num">{formatSeconds(p.durB)}</td>
              <td className="num change">{formatSeconds(p.delta)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {(['A', 'B'] as const).map((side) => {
        const ids = side === 'A' ? result.onlyA : result.onlyB;
        const rows = side === 'A' ? rowsA : rowsB;
        return ids.length === 0 ? null : (
          <div key={side} data-testid={`only-${side.toLowerCase()}`}>
            <h4>Only in {side}</h4>
            <ul>
              {ids.map((id) => (
                <li key={id}>
                  #{String(rows.get(id)?.sampleIndex ?? id)} {rows.get(id)?.source ?? ''}{' '}
                  {rows.get(id)?.status ?? ''}
                </li>
              ))}
            </ul>
          </div>
        );
      })}
    </div>
  );
}
