/**
 * TraceApi answered from a report's snapshot (issue 47: "a report is the app, frozen"): the
 * renderer's own views ask what they always ask and get what the service answered when the
 * report was made; the toolbar's search and filters are answered from the snapshot's rows
 * (snapshot-filter.ts). What a snapshot cannot answer (opening files, SQL, token values) fails
 * with a coded error, told to `onRefused` too: the page offers no control that asks it.
 */
import type {
  FileError,
  OpenResult,
  RowOrder,
  RowQuery,
  RowView,
  SpanDetails,
  TraceApi,
} from '../../src-main/core/api/trace-api';
import {
  compareKey,
  distributionKey,
  groupOrderKey,
  perfBinKey,
  type FileDetails,
  type FileSnapshot,
  type ReportSnapshot,
} from '../../src-main/core/api/report-snapshot';
import { rowFilter, rowSearchText } from './snapshot-filter';

/** What a report cannot do: said with a code, as the service says its errors. */
export class NotInReportError extends Error {
  constructor(what: string) {
    super(`report/not-included: ${what} is not part of a shared report`);
  }
}

export function snapshotApi(
  snapshot: ReportSnapshot,
  details: (file: number) => FileDetails,
  /** each refusal, as it is made (the page counts them: no control it shows may cause one) */
  onRefused: (error: NotInReportError) => void = () => {},
): TraceApi {
  const refused = (what: string) => {
    const error = new NotInReportError(what);
    onRefused(error);
    return error;
  };
  const files = new Map(
    snapshot.files.map((f, i) => [f.summary.fileId, indexFile(f, () => details(i), refused)]),
  );
  const file = (fileId: string) => {
    const found = files.get(fileId);
    if (!found) throw new Error(`no file ${fileId} in this report`);
    return found;
  };
  const refuse = (what: string) => () => Promise.reject(refused(what));
  const readOnly = async (): Promise<OpenResult> => ({
    ok: false,
    error: {
      code: 'report/read-only',
      message: 'a shared report opens no other files',
      fileName: '',
    } satisfies FileError,
  });
  const compare = snapshot.compare;
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
      runs: [],
    }),
    // a report opens on its own files, never on the start page
    startPage: async () => ({ formats: [], recent: [], demoPath: null }),
    openTrends: refuse('trends'),
    openRun: refuse('a run'),
    runNow: async () => null,
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
      const sample = f.details().samples?.[f.position(rowId)];
      if (!sample) throw new Error(`no sample at row ${rowId}`);
      return sample;
    },
    getLazyValues: refuse('token values'),
    getPerf: async (fileId) => file(fileId).snapshot.perf,
    getPerfBinRows: async (fileId, seriesKey, binIndex) =>
      file(fileId).snapshot.perfBinRows[perfBinKey(seriesKey, binIndex)] ?? [],
    getPerfGroups: async (fileId, query) => {
      const { groups } = file(fileId).snapshot;
      const kept = groups?.orders[groupOrderKey(query.sort, query.filter)];
      // a run's figures are not in a report
      if (!groups || !kept || query.rowFigure) throw refused('the groups view');
      let zeroVariance = 0;
      for (const g of groups.all) if (g.zeroVariance) zeroVariance++;
      // a header clicked again: the kept order backwards (as the worker answers it)
      const order = query.reverse ? kept.slice().reverse() : kept;
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
      if (!bins) throw refused('this distribution');
      return bins;
    },
    compare: async (a, b) => {
      const result = compare?.results[compareKey(a, b)];
      if (!result) throw refused('this compare');
      return result;
    },
    exportTrace: refuse('export'),
    exportReport: refuse('sharing again'),
    runSql: async (request) => {
      onRefused(new NotInReportError('SQL'));
      return {
        queryId: request.queryId,
        error: {
          message: 'SQL is not available in a shared report',
          position: null,
          interrupted: false,
        },
      };
    },
    getSqlRows: refuse('SQL'),
    cancelSql: async () => {},
  };
}

/** One file's snapshot with its rows found by id. */
function indexFile(
  snapshot: FileSnapshot,
  details: () => FileDetails,
  refused: (what: string) => NotInReportError,
) {
  const positions = new Map<number, number>();
  snapshot.rows.forEach((row, i) => positions.set(row.rowId, i));
  const position = (rowId: number) => {
    const at = positions.get(rowId);
    if (at === undefined) throw new Error(`no row ${rowId}`);
    return at;
  };
  let texts: string[] | null = null;
  const file = {
    snapshot,
    details,
    position,
    row: (rowId: number): RowView => snapshot.rows[position(rowId)],
    /** made on the first search: it reads the span details, most of the report's bytes */
    searchTexts: () =>
      (texts ??= snapshot.rows.map((row, i) => rowSearchText(row, details().spans[i]))),
    span(rowId: number, index: number): SpanDetails {
      const at = position(rowId);
      const item = snapshot.rows[at].items.findIndex((it) => it.index === index);
      const span = item < 0 ? null : details().spans[at][item];
      if (!span) throw new Error(`no span ${index} in row ${rowId}`);
      return span;
    },
    query(query: RowQuery): RowOrder {
      const order = (query.descending ? snapshot.descending : snapshot.orders)[query.sort];
      if (!order) throw refused(`the ${query.sort} order`);
      const keep = rowFilter(file, query.filter);
      const ids = keep ? order.filter((id) => keep(id)) : order.slice();
      return {
        rowIds: ids,
        total: snapshot.rows.length,
        storeVersion: snapshot.facts.storeVersion,
      };
    },
  };
  return file;
}
