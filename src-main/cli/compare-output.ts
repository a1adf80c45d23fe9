import type { AnswerPart, CompareFigure, CompareResult } from '../core/api/trace-api';
import { byChange, type RowDigestColumns } from '../core/compare/compare-traces';
import { matchedPairList } from '../core/compare/matched-pair-list';
import { terminalText as t } from '../core/bytes/terminal-text';

/** The answer as plain text; linked figures name their rows: "8 samples ... [B rows 0-7]". */
export function answerText(answer: AnswerPart[][]): string[] {
  return answer.map((sentence) =>
    sentence
      .map((part) =>
        part.rowIds && part.side
          ? `${part.text} [${part.side.toUpperCase()} rows ${rowList(part.rowIds)}]`
          : part.text,
      )
      .join(''),
  );
}

/**
 * `compare --json`: the result, with the answer also as plain sentences; pairs as objects and
 * row ids as plain lists, as it has always printed (the app's answer carries them as columns).
 */
export function buildCompareJson(
  names: { a: string; b: string },
  result: CompareResult,
  rowsA: RowDigestColumns,
) {
  return {
    files: names,
    answerText: answerText(result.answer),
    ...result,
    matched: matchedPairList(result, rowsA),
    onlyA: Array.from(result.onlyA),
    onlyB: Array.from(result.onlyB),
    stats: result.stats.map((figure) => ({
      ...figure,
      ...(figure.aRowIds ? { aRowIds: Array.from(figure.aRowIds) } : {}),
      ...(figure.bRowIds ? { bRowIds: Array.from(figure.bRowIds) } : {}),
    })),
  };
}

/** `compare A B`: the answer first, then the figures with units, then what kept each open. */
export function formatCompareText(names: { a: string; b: string }, result: CompareResult): string {
  const lines = [`A  ${t(names.a)}`, `B  ${t(names.b)}`, ''];
  lines.push(...answerText(result.answer).map(t), '');
  lines.push(
    `windows   A: ${t(result.windows.a.own)}`,
    `          B: ${t(result.windows.b.own)}`,
    '',
    `figures (biggest |Δ%| first; * = beyond noise: ${result.noiseRule})`,
    figureTable([...result.stats, ...result.perf].sort(byChange)),
    '',
    'what kept each rollout open (seconds of wall time; own window, then the whole span)',
    breakdownTable(result),
    '',
    `samples matched by ${result.matchedBy}: ${result.matched.aRowIds.length}; only in A: ${result.onlyA.length === 0 ? 'none' : `rows ${rowList(result.onlyA)}`}; only in B: ${result.onlyB.length === 0 ? 'none' : `rows ${rowList(result.onlyB)}`}`,
  );
  return lines.join('\n');
}

function figureTable(figures: CompareFigure[]): string {
  const keys = figures.map((f) => t(f.key));
  const width = Math.max(6, ...keys.map((key) => key.length));
  const header = `${'metric'.padEnd(width)}  ${'unit'.padEnd(7)}${['A', 'B', 'Δ', 'Δ%'].map((h) => h.padStart(12)).join('')}`;
  const body = figures.map((f, i) => {
    const delta = f.a !== null && f.b !== null ? f.b - f.a : null;
    const rel =
      f.relative === null ? '' : `${f.relative >= 0 ? '+' : ''}${(f.relative * 100).toFixed(1)}%`;
    const mark =
      f.verdict === 'better' || f.verdict === 'worse' || f.verdict === 'changed'
        ? ` * ${f.verdict}`
        : '';
    return `${keys[i].padEnd(width)}  ${t(f.unit).padEnd(7)}${[num(f.a), num(f.b), num(delta), rel].map((c) => c.padStart(12)).join('')}${mark}`;
  });
  return [header, ...body].join('\n');
}

function breakdownTable(result: CompareResult): string {
  const width = Math.max(8, ...result.wallTime.map((w) => t(w.category).length));
  const header = `${'category'.padEnd(width)}${['A own', 'B own', 'Δ own', 'A whole', 'B whole'].map((h) => h.padStart(11)).join('')}`;
  const body = result.wallTime
    .filter((w) => w.aWholeSec > 0 || w.bWholeSec > 0)
    .map(
      (w) =>
        `${t(w.category).padEnd(width)}${[w.aOwnSec, w.bOwnSec, w.bOwnSec - w.aOwnSec, w.aWholeSec, w.bWholeSec].map((v) => v.toFixed(2).padStart(11)).join('')}`,
    );
  return [header, ...body].join('\n');
}

function num(value: number | null): string {
  if (value === null) return '-';
  if (Number.isInteger(value)) return String(value);
  return Math.abs(value) >= 100 ? value.toFixed(1) : value.toPrecision(4);
}

/** 0-7, 9, 12-13 */
export function rowList(ids: ArrayLike<number>): string {
  const sorted = Array.from(ids).sort((x, y) => x - y);
  const ranges: string[] = [];
  for (let i = 0; i < sorted.length; i++) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
    ranges.push(j > i ? `${sorted[i]}-${sorted[j]}` : String(sorted[i]));
    i = j;
  }
  return ranges.join(', ');
}
