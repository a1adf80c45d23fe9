import type { Attrs } from '../../model/row';
import type { ArgsColumns } from './args-columns';
import type { FlowSteps } from './flow-steps';
import type { TraceCut } from './scan-trace-json';

/**
 * A Chrome trace as imported, before it becomes rows: processes with their threads and async
 * tracks, times in the file's microseconds. The descriptor nests slices (core/rows), binds the
 * flows and builds one row per process from this.
 */

/** pid or tid as written: a number or a string ("CPU functions") */
export type ChromeId = number | string;

export interface ChromeSlice {
  /**
   * unique in the file: its span id (what links refer to) is the trace's spanIdPrefix and this
   * number, made as its item is (a string per slice held from the import on was 300,000 tiny
   * processes' tenth of the heap)
   */
  spanIndex: number;
  /** the trace id of its process's row ("pid 1"): where a link to it points */
  rowTraceId: string;
  name: string;
  cat: string | null;
  startUs: number;
  /** null: a B never ended or an X without dur, kept open to the trace's last timestamp */
  endUs: number | null;
  /** X, B/E on a thread; b/e async on its own track */
  kind: 'complete' | 'begin-end' | 'async';
  /**
   * its args (with `cat`): an object, or the number they are kept as in the trace's argsColumns
   * (read them through argsColumns.objectOf, columnsOf and valueOf)
   */
  args: Attrs | number;
  /** args of the E (or e) that closed it; `args` holds `cat` too, for details and search */
  endArgs: Attrs;
  /** set by nesting: depth on its thread or track, and the enclosing slice */
  depth: number;
  parent: ChromeSlice | null;
  /** flows into this slice: the slices they come from (null for none: most slices) */
  flowsFrom: ChromeSlice[] | null;
  /** a GPU event's kernel kind, set by the GPU profile: its bar's colour class */
  category?: string;
}

export interface ChromeInstant {
  name: string;
  cat: string | null;
  tsUs: number;
  args: Attrs;
  /** an E (or e) with no B open: drawn as an unmatched end */
  unmatchedEnd: boolean;
}

export interface ChromeThread {
  tid: ChromeId;
  name: string | null;
  sortIndex: number | null;
  slices: ChromeSlice[];
  instants: ChromeInstant[];
  /** B events not yet ended, innermost last */
  open: ChromeSlice[];
}

/** async events of one (cat, id): b/e nest as a stack; n are instants on the track */
export interface ChromeAsyncTrack {
  label: string;
  slices: ChromeSlice[];
  instants: ChromeInstant[];
  /**
   * b events in the order they began, innermost last; ended ones are left in place (their endUs
   * set) and dropped when they reach the top, so that ending one deep inside costs nothing
   */
  open: ChromeSlice[];
  /** the same, by name: an e ends the innermost open b of its name */
  openByName: Map<string, ChromeSlice[]>;
}

export interface ChromeProcess {
  pid: ChromeId;
  /** its row's trace id ("pid 7"), which links name */
  traceId: string;
  name: string | null;
  labels: string | null;
  sortIndex: number | null;
  /** its threads, in the order they were met (a Map each cost 300,000 tiny processes) */
  threads: ChromeThread[];
  asyncTracks: Map<string, ChromeAsyncTrack>;
  /** instants of process scope (`s: "p"`), and of global scope for the first process */
  instants: ChromeInstant[];
}

export interface ChromeTrace {
  /** put before each slice's spanIndex to make its span id ("r0:" in a GPU profile's rank) */
  spanIdPrefix: string;
  /** how many slices were numbered (every spanIndex is below it) */
  sliceCount: number;
  /** slices' args kept as columns (ChromeSlice.args) */
  argsColumns: ArgsColumns;
  /** by pid as written (1 and "1" are two processes: a Map's keys tell them apart) */
  processes: Map<ChromeId, ChromeProcess>;
  /** instants of global scope (`s: "g"`) */
  globalInstants: ChromeInstant[];
  /** the s/t/f events (flow v1), bound to slices once slices are nested */
  flowSteps: FlowSteps<ChromeThread, ChromeSlice>;
  /** flow v2: slices with bind_id and flow_out / flow_in */
  boundFlows: { bindId: string; slice: ChromeSlice; out: boolean }[];
  /** counter samples per series ("pid name.series") */
  counterSeries: Map<string, number>;
  counterSamples: number;
  /** the latest timestamp in the file: where open slices are drawn to */
  lastUs: number;
  counts: {
    complete: number;
    beginEnd: number;
    async: number;
    instants: number;
    unmatchedEnds: number;
  };
  skipped: { count: number; examples: string[] };
  /** events of phases this explorer does not draw (samples, objects, ...), by ph */
  otherPhases: Map<string, number>;
  displayTimeUnit: string | null;
  unclosedArray: boolean;
  /** where the file is cut off after its events began (its events before the cut are read) */
  cut: TraceCut | null;
  /** values in args nested too deep, replaced by a note (model/cut-deep-values) */
  deepValuesCut: number;
  /** event, thread and process names longer than MAX_NAME_CHARS, cut */
  namesCut: number;
}
