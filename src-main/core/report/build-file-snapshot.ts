/**
 * One file's part of a shared report: every answer the renderer may ask of it, taken from the
 * calls that answer the app (the worker's file calls, ingest/file-calls.ts), so the report shows
 * what the app shows and nothing is computed twice. Content is left out unless asked
 * (redact-content.ts). Memory is bounded by the file's rows: each row, span and sample once.
 */
import type {
  FileSummary,
  GroupPage,
  GroupQuery,
  PerfDigest,
  RowFacts,
  RowOrder,
  RowQuery,
  RowView,
  SampleDetails,
  SpanDetails,
} from '../api/trace-api';
import { GROUP_FILTERS, GROUP_SORTS, SORT_KEYS } from '../api/sort-keys';
import {
  groupOrderKey,
  perfBinKey,
  type FileDetails,
  type FileSnapshot,
} from '../api/report-snapshot';
import type { GroupFigures } from '../model/rollout-figures';
import { packJsonList } from '../api/json-list';
import { redactAttrs, redactValue } from './redact-content';

/** The file calls a snapshot asks: a subset of the worker's FileCalls, answered at once. */
export interface SnapshotSource {
  queryRows(query: RowQuery): RowOrder;
  getRowFacts(): RowFacts;
  getRows(rowIds: number[]): RowView[];
  getSpan(rowId: number, index: number): SpanDetails;
  getSample(rowId: number): SampleDetails;
  getPerf(): PerfDigest;
  getPerfBinRows(seriesKey: string, binIndex: number): number[];
  getPerfGroups(query: GroupQuery): GroupPage;
}

/** The most groups one getPerfGroups answers (GROUP_PAGE_MAX): the snapshot pages through. */
const GROUP_PAGE = 1000;

export function buildFileSnapshot(
  summary: FileSummary,
  calls: SnapshotSource,
  withContent: boolean,
): { file: FileSnapshot; details: FileDetails } {
  const facts = calls.getRowFacts();
  const rowIds = facts.rowIds ? Array.from(facts.rowIds) : facts.startSec.map((_, i) => i);
  const rows = calls.getRows(Array.from(rowIds)).map((row) => keptRow(row, withContent));
  const spans = rows.map((row) =>
    row.items.map((item) => {
      if (item.kind !== 'span') return null;
      const span = calls.getSpan(row.rowId, item.index);
      return withContent ? span : redactSpan(span);
    }),
  );
  // a point's attrs are the one part of the store's search text a span's details do not hold
  const points = rows.map((row) =>
    row.items
      .filter((item) => item.kind !== 'span')
      .map((item) => {
        const attrs = calls.getSpan(row.rowId, item.index).startAttrs;
        return withContent ? attrs : redactAttrs(attrs);
      }),
  );
  const orders: FileSnapshot['orders'] = {};
  const descending: FileSnapshot['descending'] = {};
  for (const { key } of SORT_KEYS) {
    orders[key] = calls.queryRows({ sort: key }).rowIds;
    descending[key] = calls.queryRows({ sort: key, descending: true }).rowIds;
  }
  const filterOf = (filter: RowQuery['filter']) =>
    calls.queryRows({ sort: 'row_id', filter }).rowIds;
  const filterRows: FileSnapshot['filterRows'] = { statuses: {}, sources: {}, attempts: {} };
  for (const s of summary.statuses) filterRows.statuses[s] = filterOf({ statuses: [s] });
  for (const s of summary.sources) filterRows.sources[s] = filterOf({ sources: [s] });
  for (const a of summary.attempts) filterRows.attempts[String(a)] = filterOf({ attempts: [a] });
  const samples = summary.capabilities.samples
    ? rows.map((row) => {
        const sample = calls.getSample(row.rowId);
        return withContent ? sample : { rowId: sample.rowId, fields: redactAttrs(sample.fields) };
      })
    : null;
  const perf = calls.getPerf();
  const file: FileSnapshot = {
    summary,
    facts,
    rows: packJsonList(rows),
    rowIds: Int32Array.from(rows, (row) => row.rowId),
    orders,
    descending,
    filterRows,
    perf,
    perfBinRows: binRows(perf, calls),
    groups: groupsOf(calls),
  };
  return {
    file,
    details: {
      spans: packJsonList(spans),
      points: packJsonList(points),
      samples: samples && packJsonList(samples),
    },
  };
}

function keptRow(row: RowView, withContent: boolean): RowView {
  return withContent ? row : { ...row, label: redactValue(row.label, 'label') };
}

function redactSpan(span: SpanDetails): SpanDetails {
  return {
    ...span,
    startAttrs: redactAttrs(span.startAttrs),
    endAttrs: redactAttrs(span.endAttrs),
    ...(span.otel ? { otel: redactAttrs(span.otel) } : {}),
  };
}

/** Each histogram bin's rows (a bin click highlights them). */
function binRows(perf: PerfDigest, calls: SnapshotSource): Record<string, Int32Array> {
  const out: Record<string, Int32Array> = {};
  for (const series of perf.series) {
    series.bins.forEach((bin, index) => {
      if (bin.count > 0)
        out[perfBinKey(series.key, index)] = Int32Array.from(
          calls.getPerfBinRows(series.key, index),
        );
    });
  }
  return out;
}

/** Every group, and each (sort, filter) of the groups view as positions in that list. */
function groupsOf(calls: SnapshotSource): FileSnapshot['groups'] {
  const page = (sort: GroupQuery['sort'], filter: GroupQuery['filter']) => {
    const groups: GroupFigures[] = [];
    for (let offset = 0; ; offset += GROUP_PAGE) {
      const answer = calls.getPerfGroups({ sort, filter, offset, limit: GROUP_PAGE });
      groups.push(...answer.groups);
      if (groups.length >= answer.shown || answer.groups.length === 0) return groups;
    }
  };
  const all = page('group', 'all');
  if (all.length === 0) return null;
  const position = new Map(all.map((g, i) => [g, i]));
  const orders: Record<string, Int32Array> = {};
  for (const { key: sort } of GROUP_SORTS) {
    for (const { key: filter } of GROUP_FILTERS) {
      // answered in this thread from one list (group-page.ts): the same objects, found by identity
      orders[groupOrderKey(sort, filter)] = Int32Array.from(
        page(sort, filter).map((g) => position.get(g) ?? -1),
      );
    }
  }
  return { all, orders };
}
