/**
 * TraceApi answered from a report's snapshot (issue 47: "a report is the app, frozen"): the
 * renderer's own views ask what they always ask and get what the service answered when the
 * report was made. What a snapshot cannot answer (opening files, SQL, token values, a text
 * search) fails with a coded error the views show like any other.
 */
import type {
  FileError,
  OpenResult,
  RowFilter,
  RowOrder,
  RowQuery,
  RowView,
  SampleDetails,
  SpanDetails,
  TraceApi,
} from '../../src-main/core/api/trace-api';
import { jsonListReader, type JsonListReader } from '../../src-main/core/api/json-list';
import {
  compareKey,
  distributionKey,
  groupOrderKey,
  perfBinKey,
  type FileDetails,
  type FileSnapshot,
  type ReportSnapshot,
} from '../../src-main/core/api/report-snapshot';

/** What a report cannot do: said with a code, as the service says its errors. */
export class NotInReportError extends Error {
  constructor(what: string) {
    super(`report/not-included: ${what} is not part of a shared report`);
  }
}

export function snapshotApi(
  snapshot: ReportSnapshot,
  details: (file: number) => FileDetails | Promise<FileDetails>,
): TraceApi {
  const files = new Map(
    snapshot.files.map((f, i) => [f.summary.fileId, indexFile(f, () => details(i))]),
  );
  const file = (fileId: string) => {
    const found = files.get(fileId);
    if (!found) throw new Error(`no file ${fileId} in this report`);
    return found;
  };
  const refuse = (what: string) => () => Promise.reject(new NotInReportError(what));
  const readOnly = async (): Promise<OpenResult> => ({
    ok: false,
    error: {
      code: 'report/read-only',
      message: 'a shared report opens no other files',
      fileName: '',
    } satisfies FileError,
  });
  const { compare, run } = snapshot;
  return {
    open: readOnly,
    reopen: readOnly,
    cancelOpen: async () => {},
    close: async () => {},
    listFiles: async () => snapshot.files.map((f) => f.summary),
    initialFiles: async () => ({
      fileIds: snapshot.files.map((f) => f.summary.fileId),
      compare: compare !== undefined,
      errors: [],
      trendFolders: [],
      // a run's tab as the app opens a run folder: openRun answers it from the snapshot
      runs: run ? [run.paths] : [],
    }),
    // a report opens on its own files, never on the start page
    startPage: async () => ({ formats: [], recent: [], demoPath: null }),
    openTrends: refuse('trends'),
    openRun: async (request) => {
      if (!run || request.paths.join('\n') !== run.paths.join('\n'))
        throw new NotInReportError('another run');
      return run;
    },
    runNow: async () => run ?? null,
    trendsNow: async () => null,
    onProgress: () => () => {},
    openingNow: async () => [],
    onHostEvent: () => () => {},
    queryRows: async (fileId, query) => file(fileId).query(query),
    getRowFacts: async (fileId) => file(fileId).snapshot.facts,
    getRows: async (fileId, rowIds) => rowIds.map((id) => file(fileId).row(id)),
    getSpan: async (fileId, rowId, index) => file(fileId).span(rowId, index),
    getSample: async (fileId, rowId) => {
      const f = file(fileId);
      const { samples } = await f.details();
      if (!samples) throw new Error(`no sample at row ${rowId}`);
      return samples.at(f.position(rowId));
    },
    getLazyValues: refuse('token values'),
    getPerf: async (fileId) => file(fileId).snapshot.perf,
    getPerfBinRows: async (fileId, seriesKey, binIndex) =>
      Array.from(file(fileId).snapshot.perfBinRows[perfBinKey(seriesKey, binIndex)] ?? []),
    getPerfGroups: async (fileId, query) => {
      const { groups } = file(fileId).snapshot;
      const order = groups?.orders[groupOrderKey(query.sort, query.filter)];
      if (!groups || !order) throw new NotInReportError('the groups view');
      let zeroVariance = 0;
      for (const g of groups.all) if (g.zeroVariance) zeroVariance++;
      const page = Array.from(order.subarray(query.offset, query.offset + query.limit));
      return {
        groups: page.map((i) => groups.all[i]),
        offset: query.offset,
        shown: order.length,
        total: groups.all.length,
        zeroVariance,
      };
    },
    comparePerfDistribution: async (a, b, distribution) => {
      const bins = compare?.distributions[distributionKey(a, b, distribution)];
      if (!bins) throw new NotInReportError('this distribution');
      return bins;
    },
    compare: async (a, b) => {
      const result = compare?.results[compareKey(a, b)];
      if (!result) throw new NotInReportError('this compare');
      return result;
    },
    exportTrace: refuse('export'),
    exportReport: refuse('sharing again'),
    runSql: async (request) => ({
      queryId: request.queryId,
      error: {
        message: 'SQL is not available in a shared report',
        position: null,
        interrupted: false,
      },
    }),
    getSqlRows: refuse('SQL'),
    cancelSql: async () => {},
  };
}

/**
 * One file's snapshot with its rows found by id; rows, spans and samples parsed as they are
 * asked for (json-list.ts), the details block decoded on the first ask.
 */
function indexFile(snapshot: FileSnapshot, readDetails: () => FileDetails | Promise<FileDetails>) {
  const positions = new Map<number, number>();
  snapshot.rowIds.forEach((rowId, i) => positions.set(rowId, i));
  const position = (rowId: number) => {
    const at = positions.get(rowId);
    if (at === undefined) throw new Error(`no row ${rowId}`);
    return at;
  };
  const rows = jsonListReader(snapshot.rows);
  let read: Promise<{
    spans: JsonListReader<(SpanDetails | null)[]>;
    samples: JsonListReader<SampleDetails> | null;
  }> | null = null;
  const details = () =>
    (read ??= Promise.resolve(readDetails()).then(({ spans, samples }) => ({
      spans: jsonListReader(spans),
      samples: samples && jsonListReader(samples),
    })));
  return {
    snapshot,
    details,
    position,
    row: (rowId: number): RowView => rows.at(position(rowId)),
    async span(rowId: number, index: number): Promise<SpanDetails> {
      const at = position(rowId);
      const item = rows.at(at).items.findIndex((it) => it.index === index);
      const span = item < 0 ? null : (await details()).spans.at(at)[item];
      if (!span) throw new Error(`no span ${index} in row ${rowId}`);
      return span;
    },
    query(query: RowQuery): RowOrder {
      const order = (query.descending ? snapshot.descending : snapshot.orders)[query.sort];
      if (!order) throw new NotInReportError(`the ${query.sort} order`);
      let ids = Array.from(order);
      const keep = kept(snapshot, query.filter);
      if (keep) ids = ids.filter((id) => keep(id));
      return {
        rowIds: Int32Array.from(ids),
        total: rows.length,
        storeVersion: snapshot.facts.storeVersion,
      };
    },
  };
}

/**
 * The filter as a test on row ids, from the rows the snapshot kept per status, source and
 * attempt (the store's own answers); null when nothing is filtered. A filter the snapshot holds
 * no answer for (text search, a span name, a reward range) is refused, never guessed.
 */
function kept(
  snapshot: FileSnapshot,
  filter: RowFilter | undefined,
): ((id: number) => boolean) | null {
  if (!filter) return null;
  if (
    filter.text ||
    filter.spanName ||
    filter.rewardMin !== undefined ||
    filter.rewardMax !== undefined
  )
    throw new NotInReportError('searching and filtering by span name or reward');
  const tests: ((id: number) => boolean)[] = [];
  const anyOf = (lists: Record<string, Int32Array>, values: (string | number)[] | undefined) => {
    if (!values || values.length === 0) return;
    const ids = new Set<number>();
    for (const v of values) for (const id of lists[String(v)] ?? []) ids.add(id);
    tests.push((id) => ids.has(id));
  };
  anyOf(snapshot.filterRows.statuses, filter.statuses);
  anyOf(snapshot.filterRows.sources, filter.sources);
  anyOf(snapshot.filterRows.attempts, filter.attempts);
  if (filter.rowIds) {
    const ids = new Set(filter.rowIds);
    tests.push((id) => ids.has(id));
  }
  return tests.length === 0 ? null : (id) => tests.every((t) => t(id));
}
