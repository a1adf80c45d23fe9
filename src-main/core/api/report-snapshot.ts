/**
 * What a shared report holds (issue 47, "a report is the app, frozen"): per file the answers
 * TraceApi gave about it when the report was made, so that the renderer's own code shows them
 * again from the page (src-renderer/report/snapshot-api.ts answers TraceApi from this). Made by
 * src-main/report/file-snapshot.ts from the service's own calls; typed arrays stay typed (the
 * snapshot travels as a typed frame, core/api/typed-json.ts, deflated inside the HTML).
 */
import type {
  CompareResult,
  PerfDistributionId,
  FileSummary,
  GroupFigures,
  PerfDigest,
  RowFacts,
  RowView,
  RunResult,
  SampleDetails,
  SharedBins,
  SpanDetails,
} from './trace-api';
import type { GroupFilter, GroupSort, SortKey } from './sort-keys';
import type { JsonList } from './json-list';
import type { Attrs } from '../model/row';

/** The version of this shape: a page refuses a snapshot of another. */
export const REPORT_SNAPSHOT_VERSION = 3;

export interface ReportSnapshot {
  version: typeof REPORT_SNAPSHOT_VERSION;
  /** ISO time the report was made */
  madeAt: string;
  /** whether prompts, responses, labels and tool arguments are in it */
  withContent: boolean;
  files: FileSnapshot[];
  /** a compare pair: A is files[0], B files[1] */
  compare?: CompareSnapshot;
  /**
   * a run (a folder of one RL run's files): openRun's answer over `files` (each its file), for
   * the run tab; paths are the files' names only
   */
  run?: RunResult;
}

/** Both ways round (the compare view swaps A and B), keyed by compareKey and distributionKey. */
export interface CompareSnapshot {
  results: Record<string, CompareResult>;
  /** comparePerfDistribution per pair and distribution, both files on shared bins */
  distributions: Record<string, SharedBins>;
}

export interface FileSnapshot {
  summary: FileSummary;
  facts: RowFacts;
  /** every row as the timeline draws it, in the store's order (parsed as the page asks) */
  rows: JsonList<RowView>;
  /** each row's id, in `rows` order */
  rowIds: Int32Array;
  /** per sort key the row ids in the store's order, ascending and descending (ties differ) */
  orders: Partial<Record<SortKey, Int32Array>>;
  descending: Partial<Record<SortKey, Int32Array>>;
  /** the rows holding each status, source and attempt: the toolbar's filters, intersected */
  filterRows: {
    statuses: Record<string, Int32Array>;
    sources: Record<string, Int32Array>;
    attempts: Record<string, Int32Array>;
  };
  perf: PerfDigest;
  /** `${seriesKey}\n${binIndex}` -> the rows of that bin (typed: no JSON to parse) */
  perfBinRows: Record<string, Int32Array>;
  /** every group (the groups view), and per `${sort}\n${filter}` their order as positions */
  groups: { all: GroupFigures[]; orders: Record<string, Int32Array> } | null;
}

/**
 * What the details panel asks of a file: the bulk of a report, carried in a block of its own
 * that the page decodes on the first click, so the timeline shows without waiting for it.
 */
export interface FileDetails {
  /** per row (in `rows` order), its items' span details (null for an item that is no span) */
  spans: JsonList<(SpanDetails | null)[]>;
  /**
   * per row, the attributes of its points (events, markers), in item order: the store's
   * search text holds them (core/store/search-text.ts), so the report's search must too
   */
  points: JsonList<Attrs[]>;
  /** per row, its sample's fields */
  samples: JsonList<SampleDetails> | null;
}

/** A report as made: the snapshot and, per file, its details (encoded apart). */
export interface ReportParts {
  snapshot: ReportSnapshot;
  details: FileDetails[];
}

export const groupOrderKey = (sort: GroupSort, filter: GroupFilter) => `${sort}\n${filter}`;
export const perfBinKey = (seriesKey: string, binIndex: number) => `${seriesKey}\n${binIndex}`;
export const compareKey = (fileIdA: string, fileIdB: string) => `${fileIdA}\n${fileIdB}`;
export const distributionKey = (fileIdA: string, fileIdB: string, id: PerfDistributionId) =>
  `${fileIdA}\n${fileIdB}\n${id.kind}\n${id.name}`;
