import { basename, relative } from 'node:path';
import type { CompareResult } from '../core/api/trace-api';
import {
  compareDigest,
  compareTraces,
  type CompareSide,
  type RowDigestColumns,
} from '../core/compare/compare-traces';
import { compareExtraOf } from '../core/compare/run-extra-figures';
import type { AttrValue } from '../core/model/row';
import { buildCompareJson, formatCompareText } from './compare-output';
import type { OpenedRun } from './run-output';
import { terminalText as t } from '../core/bytes/terminal-text';

/** One of a run's rollout dumps, as `compare RUN_A RUN_B` pairs them. */
interface RunRolloutRef {
  file: number;
  rolloutId: AttrValue;
}

/** Two runs' rollouts compared pair by pair: by rollout id, or in order when no id is shared. */
export interface RunComparison {
  pairedBy: 'rollout id' | 'order';
  pairs: {
    rolloutId: AttrValue;
    a: number;
    b: number;
    result: CompareResult;
    /** A's rows as compare matched them (the JSON's pairs) */
    rowsA: RowDigestColumns;
  }[];
  onlyA: RunRolloutRef[];
  onlyB: RunRolloutRef[];
}

/**
 * `compare A B` of two run folders: each rollout dump of A beside B's of the same rollout id
 * (the same step of two runs; in order when the runs share no id), compared as the app compares
 * two dumps of open runs: with each run's train dumps and request metrics (compareExtraOf), so
 * the answer says what the app's says (decode per token, retractions, cache, mismatch, staleness).
 */
export function compareRuns(a: OpenedRun, b: OpenedRun): RunComparison {
  const [ra, rb] = [a, b].map((run) =>
    run.joins.rollouts.map(({ file, rolloutId }) => ({ file, rolloutId })),
  );
  const key = (r: RunRolloutRef) => JSON.stringify(r.rolloutId);
  const inB = new Map(rb.map((r) => [key(r), r]));
  let pairs: [RunRolloutRef, RunRolloutRef][] = ra.flatMap((r) => {
    const other = inB.get(key(r));
    return other ? [[r, other] as [RunRolloutRef, RunRolloutRef]] : [];
  });
  const pairedBy = pairs.length > 0 || ra.length === 0 ? 'rollout id' : 'order';
  if (pairedBy === 'order') pairs = ra.slice(0, rb.length).map((r, k) => [r, rb[k]]);
  const paired = (side: 0 | 1) => new Set(pairs.map((p) => p[side].file));
  return {
    pairedBy,
    pairs: pairs.map(([x, y]) => {
      const sideA = sideOf(a, x.file);
      return {
        rolloutId: x.rolloutId,
        a: x.file,
        b: y.file,
        result: compareTraces(sideA, sideOf(b, y.file)),
        rowsA: sideA.digest.rows,
      };
    }),
    onlyA: ra.filter((r) => !paired(0).has(r.file)),
    onlyB: rb.filter((r) => !paired(1).has(r.file)),
  };
}

/** A run's dump as compare's side: its digest, and what the run's other files say of it. */
export function sideOf(run: OpenedRun, file: number): CompareSide {
  const { path, trace } = run.traces[file];
  const summary = { ...trace.summary, fileId: path, path };
  const files = run.traces.map((t) => ({ file: { fileId: t.path, path: t.path } }));
  return {
    fileId: path,
    summary,
    digest: compareDigest(trace),
    extra: compareExtraOf({ files, joins: run.joins }, summary),
  };
}

/** A dump's name as printed: its run folder's name and its path inside it. */
function nameIn(root: string, run: OpenedRun, file: number): string {
  return `${basename(root)}/${relative(root, run.traces[file].path)}`;
}

const idText = (id: AttrValue) => (id === null ? 'without id' : String(id));

/** `compare RUN_A RUN_B --json`: each pair as `compare A B --json` prints two dumps. */
export function buildRunCompareJson(
  roots: { a: string; b: string },
  runs: { a: OpenedRun; b: OpenedRun },
  comparison: RunComparison,
) {
  const refs = (run: OpenedRun, list: RunRolloutRef[]) =>
    list.map((r) => ({ rolloutId: r.rolloutId, path: run.traces[r.file].path }));
  return {
    runs: roots,
    pairedBy: comparison.pairedBy,
    pairs: comparison.pairs.map((p) => ({
      rolloutId: p.rolloutId,
      ...buildCompareJson(
        { a: nameIn(roots.a, runs.a, p.a), b: nameIn(roots.b, runs.b, p.b) },
        p.result,
        p.rowsA,
      ),
    })),
    onlyA: refs(runs.a, comparison.onlyA),
    onlyB: refs(runs.b, comparison.onlyB),
    failed: { a: runs.a.failed, b: runs.b.failed },
  };
}

/** `compare RUN_A RUN_B`: per pair of rollouts, what `compare A B` says of two dumps. */
export function formatRunCompareText(
  roots: { a: string; b: string },
  runs: { a: OpenedRun; b: OpenedRun },
  comparison: RunComparison,
): string {
  const lines = [
    `runs  A: ${t(roots.a)}`,
    `      B: ${t(roots.b)}`,
    `${comparison.pairs.length} rollout${comparison.pairs.length === 1 ? '' : 's'} paired by ${comparison.pairedBy}` +
      (comparison.onlyA.length > 0
        ? `; only in A: ${comparison.onlyA.map((r) => idText(r.rolloutId)).join(', ')}`
        : '') +
      (comparison.onlyB.length > 0
        ? `; only in B: ${comparison.onlyB.map((r) => idText(r.rolloutId)).join(', ')}`
        : ''),
  ];
  for (const [side, run] of [
    ['A', runs.a],
    ['B', runs.b],
  ] as const)
    for (const f of run.failed)
      lines.push(`${side}: ${t(f.path)} did not open: ${t(f.message)} [${f.code}]`);
  for (const p of comparison.pairs) {
    lines.push('', `== rollout ${idText(p.rolloutId)}`);
    lines.push(
      formatCompareText(
        { a: nameIn(roots.a, runs.a, p.a), b: nameIn(roots.b, runs.b, p.b) },
        p.result,
      ),
    );
  }
  return lines.join('\n');
}
