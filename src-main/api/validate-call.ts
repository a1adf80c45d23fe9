import {
  GROUP_PAGE_MAX,
  GROUP_ROW_FIGURE_MAX,
  SQL_PAGE_MAX_ROWS,
  TRACE_API_METHODS,
  isExportFormat,
  type TraceApiMethod,
} from '../core/api/trace-api';
import { isGroupFilter, isGroupSort, isSortKey } from '../core/api/sort-keys';

import { BadCallError } from '../core/api/call-errors';

type Check = (value: unknown) => boolean;

const isString: Check = (v) => typeof v === 'string' && v.length > 0 && v.length <= 4096;
/** a sample field, or the keys down to one nested in its dicts (SampleFieldPath) */
const isFieldPath: Check = (v) =>
  isString(v) || (Array.isArray(v) && v.length >= 1 && v.length <= 16 && v.every(isString));
const isIndex: Check = (v) => Number.isInteger(v) && (v as number) >= 0 && (v as number) < 2 ** 31;
const isIndexList: Check = (v) => Array.isArray(v) && v.length <= 100_000 && v.every(isIndex);
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Checks of trailing arguments a caller may leave out (undefined or null). */
const OPTIONAL = new WeakSet<Check>();
function optional(check: Check): Check {
  const wrapped: Check = (v) => v === undefined || v === null || check(v);
  OPTIONAL.add(wrapped);
  return wrapped;
}

/** {startSec, endSec, pixels}: the window a row's items are chosen for (RowWindow) */
const isRowWindow: Check = (v) =>
  isObject(v) &&
  Number.isFinite(v.startSec) &&
  Number.isFinite(v.endSec) &&
  typeof v.pixels === 'number' &&
  Number.isFinite(v.pixels) &&
  v.pixels > 0;

const MAX_DROPPED_BASE64 = 1.5 * 1024 ** 3;

function isOpenSource(v: unknown): boolean {
  if (!isObject(v)) return false;
  if (v.kind === 'path') return isString(v.path);
  if (v.kind === 'bytes') {
    return (
      isString(v.name) &&
      typeof v.bytesBase64 === 'string' &&
      v.bytesBase64.length < MAX_DROPPED_BASE64
    );
  }
  // the store's ids are UUIDs; anything longer is not one of them
  if (v.kind === 'upload')
    return typeof v.uploadId === 'string' && /^[\w-]{1,64}$/.test(v.uploadId);
  return false;
}

function isOpenRequest(v: unknown): boolean {
  return (
    isObject(v) &&
    isString(v.openId) &&
    (v.joinByBootstrapRoom === undefined || typeof v.joinByBootstrapRoom === 'boolean') &&
    Array.isArray(v.sources) &&
    v.sources.length > 0 &&
    v.sources.length <= 1000 &&
    v.sources.every(isOpenSource)
  );
}

const isOptionalStrings = (v: unknown) =>
  v === undefined ||
  (Array.isArray(v) && v.length <= 10_000 && v.every((s) => typeof s === 'string'));
const isOptionalNumber = (v: unknown) =>
  v === undefined || (typeof v === 'number' && !Number.isNaN(v));

function isRowQuery(v: unknown): boolean {
  if (!isObject(v) || !isSortKey(v.sort)) return false;
  if (v.descending !== undefined && typeof v.descending !== 'boolean') return false;
  if (v.filter === undefined) return true;
  const f = v.filter;
  return (
    isObject(f) &&
    (f.text === undefined || (typeof f.text === 'string' && f.text.length <= 1000)) &&
    isOptionalStrings(f.statuses) &&
    isOptionalStrings(f.sources) &&
    (f.attempts === undefined ||
      (Array.isArray(f.attempts) && f.attempts.every(Number.isInteger))) &&
    (f.spanName === undefined || typeof f.spanName === 'string') &&
    isOptionalNumber(f.rewardMin) &&
    isOptionalNumber(f.rewardMax) &&
    (f.rowIds === undefined || isIndexList(f.rowIds))
  );
}

/** {openId, paths}: openTrends and openRun */
function isPathsRequest(v: unknown): boolean {
  return (
    isObject(v) &&
    typeof v.openId === 'string' &&
    Array.isArray(v.paths) &&
    v.paths.length > 0 &&
    v.paths.length <= 10_000 &&
    v.paths.every((p) => typeof p === 'string' && p.length > 0 && p.length <= 4096)
  );
}

/** openRun's request: {openId, paths} and when to answer */
function isRunRequest(v: unknown): boolean {
  return (
    isPathsRequest(v) &&
    ((v as Record<string, unknown>).answer === undefined ||
      (v as Record<string, unknown>).answer === 'first-file' ||
      (v as Record<string, unknown>).answer === 'all-files')
  );
}

// a histogram has about 20 bins (core/open/perf-digest.ts PERF_BINS); round edges add a few
const isBinIndex: Check = (v) => isIndex(v) && (v as number) < 1000;
const isPerfDistributionId: Check = (v) =>
  isObject(v) && (v.kind === 'duration' || v.kind === 'series') && isString(v.name);

/** a page of the groups view: a known sort and filter, at most GROUP_PAGE_MAX groups */
function isGroupQuery(v: unknown): boolean {
  return (
    isObject(v) &&
    isGroupSort(v.sort) &&
    isGroupFilter(v.filter) &&
    isIndex(v.offset) &&
    isIndex(v.limit) &&
    (v.limit as number) >= 1 &&
    (v.limit as number) <= GROUP_PAGE_MAX &&
    (v.reverse === undefined || typeof v.reverse === 'boolean') &&
    (v.rowFigure === undefined || isGroupRowFigure(v.rowFigure))
  );
}

const isFiniteNumber: Check = (v) => typeof v === 'number' && Number.isFinite(v);

/** a figure per row to order groups by: three lists of one length, rows, finite numbers */
function isGroupRowFigure(v: unknown): boolean {
  if (!isObject(v) || !['ratio', 'sum', 'max'].includes(v.combine as string)) return false;
  const { rowIds, values, weights } = v;
  return (
    Array.isArray(rowIds) &&
    Array.isArray(values) &&
    Array.isArray(weights) &&
    rowIds.length <= GROUP_ROW_FIGURE_MAX &&
    values.length === rowIds.length &&
    weights.length === rowIds.length &&
    rowIds.every(isIndex) &&
    values.every(isFiniteNumber) &&
    weights.every(isFiniteNumber)
  );
}

/** a query: its id, 1 to 64 distinct open files, at most 1 MB of text */
function isSqlRequest(v: unknown): boolean {
  return (
    isObject(v) &&
    isString(v.queryId) &&
    (v.queryId as string).length <= 128 &&
    Array.isArray(v.fileIds) &&
    v.fileIds.length >= 1 &&
    v.fileIds.length <= 64 &&
    v.fileIds.every(isString) &&
    new Set(v.fileIds).size === v.fileIds.length &&
    typeof v.sql === 'string' &&
    v.sql.length <= 1_000_000
  );
}

function isReportRequest(v: unknown): boolean {
  if (isObject(v) && v.runId !== undefined) {
    // a run's report: its files are the run's, named by main
    return (
      isString(v.runId) &&
      Array.isArray(v.fileIds) &&
      v.fileIds.length === 0 &&
      v.compare === false &&
      typeof v.withContent === 'boolean'
    );
  }
  return (
    isObject(v) &&
    Array.isArray(v.fileIds) &&
    v.fileIds.length >= 1 &&
    v.fileIds.length <= (v.compare === true ? 2 : 1) &&
    v.fileIds.every(isString) &&
    new Set(v.fileIds).size === v.fileIds.length &&
    typeof v.compare === 'boolean' &&
    (v.compare === false || v.fileIds.length === 2) &&
    typeof v.withContent === 'boolean'
  );
}

const SIGNATURES: Record<TraceApiMethod, Check[]> = {
  open: [isOpenRequest],
  cancelOpen: [isString],
  close: [isString],
  listFiles: [],
  openingNow: [],
  initialFiles: [],
  startPage: [],
  openTrends: [isPathsRequest],
  openRun: [isRunRequest],
  runNow: [isString],
  trendsNow: [isString],
  queryRows: [isString, isRowQuery],
  getRowFacts: [isString],
  getRows: [isString, isIndexList, optional(isRowWindow)],
  getSpan: [isString, isIndex, isIndex],
  getSample: [isString, isIndex],
  getLazyValues: [isString, isIndex, isFieldPath],
  getPerf: [isString],
  getPerfBinRows: [isString, isString, isBinIndex],
  getPerfGroups: [isString, isGroupQuery],
  comparePerfDistribution: [isString, isString, isPerfDistributionId],
  compare: [isString, isString],
  exportTrace: [isString, isExportFormat],
  exportReport: [isReportRequest],
  reopen: [isString, (v) => isObject(v) && typeof v.joinByBootstrapRoom === 'boolean'],
  runSql: [isSqlRequest],
  getSqlRows: [isString, isIndex, (v) => isIndex(v) && (v as number) <= SQL_PAGE_MAX_ROWS],
  cancelSql: [isString],
};

/** Checks a method name and its arguments against the contract; throws BadCallError. */
export function validateCall(
  method: unknown,
  args: unknown,
): { method: TraceApiMethod; args: unknown[] } {
  if (typeof method !== 'string' || !(TRACE_API_METHODS as readonly string[]).includes(method)) {
    throw new BadCallError(`unknown method ${String(method).slice(0, 64)}`);
  }
  const checks = SIGNATURES[method as TraceApiMethod];
  const required = checks.filter((check) => !OPTIONAL.has(check)).length;
  if (!Array.isArray(args) || args.length < required || args.length > checks.length) {
    const count = required === checks.length ? checks.length : `${required} to ${checks.length}`;
    throw new BadCallError(`${method} takes ${count} arguments`);
  }
  checks.forEach((check, i) => {
    if (!check(args[i])) throw new BadCallError(`${method}: argument ${i + 1} is not valid`);
  });
  return { method: method as TraceApiMethod, args };
}
