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
  SampleDetails,
  SpanDetails,
  TraceApi,
} from '../../src-main/core/api/trace-api';
import { jsonListReader, type JsonListReader } from '../../src-main/core/api/json-list';
import type { Attrs } from '../../src-main/core/model/row';
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
  details: (file: number) => FileDetails | Promise<FileDetails>,
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
      if (!run || request.paths.join('\n') !== run.paths.join('\n')) throw refused('another run');
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

/**
 * One file's snapshot with its rows found by id; rows, spans and samples parsed as they are
 * asked for (json-list.ts), the details block decoded on the first ask.
 */
function indexFile(
  snapshot: FileSnapshot,
  readDetails: () => FileDetails | Promise<FileDetails>,
  refused: (what: string) => NotInReportError,
) {
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
    points: JsonListReader<Attrs[]>;
    samples: JsonListReader<SampleDetails> | null;
  }> | null = null;
  const details = () =>
    (read ??= Promise.resolve(readDetails()).then(({ spans, points, samples }) => ({
      spans: jsonListReader(spans),
      points: jsonListReader(points),
      samples: samples && jsonListReader(samples),
    })));
  let everyRow: RowView[] | null = null;
  let texts: string[] | null = null;
  const file = {
    snapshot,
    details,
    position,
    row: (rowId: number): RowView => rows.at(position(rowId)),
    /** every row, parsed on the first filter that reads them all */
    rows: () => (everyRow ??= Array.from({ length: rows.length }, (_, i) => rows.at(i))),
    /** made by the first search (query): it reads the span details, most of the report's bytes */
    searchTexts: () => texts ?? [],
    async span(rowId: number, index: number): Promise<SpanDetails> {
      const at = position(rowId);
      const item = rows.at(at).items.findIndex((it) => it.index === index);
      const span = item < 0 ? null : (await details()).spans.at(at)[item];
      if (!span) throw new Error(`no span ${index} in row ${rowId}`);
      return span;
    },
    async query(query: RowQuery): Promise<RowOrder> {
      const order = (query.descending ? snapshot.descending : snapshot.orders)[query.sort];
      if (!order) throw refused(`the ${query.sort} order`);
      if (query.filter?.text?.trim() && !texts) {
        const { spans, points } = await details();
        texts = file.rows().map((row, i) => rowSearchText(row, spans.at(i), points.at(i)));
      }
      const keep = rowFilter(file, query.filter);
      const ids = keep ? order.filter((id) => keep(id)) : order.slice();
      return {
        rowIds: ids,
        total: rows.length,
        storeVersion: snapshot.facts.storeVersion,
      };
    },
  };
  return file;
}
