import type { ByteSource } from '../../bytes/byte-source';
import type { Attrs } from '../../model/row';
import type {
  ChromeAsyncTrack,
  ChromeId,
  ChromeInstant,
  ChromeProcess,
  ChromeSlice,
  ChromeThread,
  ChromeTrace,
} from './chrome-trace';
import { ArgsColumns } from './args-columns';
import { FLOW_PHASE, FlowSteps } from './flow-steps';
import { scanTraceJson } from './scan-trace-json';
import { SharedValues } from './shared-values';
import { cutDeepValues } from '../../model/cut-deep-values';
import { timeInRange } from '../../model/time-range';

export interface ImportOptions {
  onProgress?: (bytesRead: number, events: number) => void;
  shouldCancel?: () => boolean;
  /** every top-level key beside traceEvents (Kineto's distributedInfo, baseTimeNanoseconds) */
  onMetadata?: (key: string, value: unknown) => void;
  /** put before every span id (a GPU profile's rank: "r0:"), so that ranks' ids never meet */
  spanIdPrefix?: string;
}

/** Names longer than this are cut (see EventImporter.cut). */
export const MAX_NAME_CHARS = 1000;

/**
 * Arrays and objects in args up to about this long (as JSON) are kept once (SharedValues' cost:
 * a unit per element and per char of its strings, never more than the JSON text's length).
 */
const MAX_SHARED_COST = 256;
/** past this many distinct values (a trace whose every value is its own), each is kept as read */
const MAX_SHARED_VALUES = 100_000;

/** How many skipped events are named in the notice. */
const SKIP_EXAMPLES = 5;

/**
 * Chrome Trace Event JSON -> processes, threads, slices, instants, flows (TRACE_MODEL
 * section 8). Each event is imported as it is scanned and then dropped, so the file's JSON tree
 * never exists whole. An event of the wrong shape is skipped and counted; the rest opens.
 */
export function importTraceEvents(source: ByteSource, options: ImportOptions = {}): ChromeTrace {
  const trace: ChromeTrace = {
    spanIdPrefix: options.spanIdPrefix ?? '',
    sliceCount: 0,
    argsColumns: new ArgsColumns(),
    processes: new Map(),
    globalInstants: [],
    flowSteps: new FlowSteps<ChromeThread, ChromeSlice>(),
    boundFlows: [],
    counterSeries: new Map(),
    counterSamples: 0,
    lastUs: -Infinity,
    counts: { complete: 0, beginEnd: 0, async: 0, instants: 0, unmatchedEnds: 0 },
    skipped: { count: 0, examples: [] },
    otherPhases: new Map(),
    displayTimeUnit: null,
    unclosedArray: false,
    cut: null,
    deepValuesCut: 0,
    namesCut: 0,
  };
  const importer = new EventImporter(trace);
  const skip = (index: number, offset: number, reason: string) => {
    trace.skipped.count++;
    if (trace.skipped.examples.length < SKIP_EXAMPLES) {
      trace.skipped.examples.push(`event ${index} (byte ${offset}) ${reason}`);
    }
  };
  let events = 0;
  const scan = scanTraceJson(source, {
    onEvent: (value) => {
      events++;
      return importer.add(value);
    },
    // not JSON (not counted yet), or skipped by the importer (counted above)
    onBadEvent: (offset, index, reason) => {
      events = Math.max(events, index + 1);
      skip(index, offset, reason);
    },
    onMetadata: (key, value) => {
      if (key === 'displayTimeUnit' && typeof value === 'string') trace.displayTimeUnit = value;
      options.onMetadata?.(key, value);
    },
    onProgress: (bytes) => options.onProgress?.(bytes, events),
    shouldCancel: options.shouldCancel,
  });
  trace.unclosedArray = scan.unclosedArray;
  trace.cut = scan.cut;
  importer.finish();
  return trace;
}

type Event = Record<string, unknown>;

const isObject = (v: unknown): v is Event =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** a time in microseconds: a number, or a number written as a string */
function microseconds(v: unknown): number | null {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : null;
}

function idOf(v: unknown): ChromeId | null {
  return typeof v === 'number' || typeof v === 'string' ? v : null;
}

/**
 * One empty attrs object for every event without args (most E events, many X): millions of
 * events would otherwise each hold an empty object of their own. Frozen: nothing writes to it.
 */
const NO_ARGS: Attrs = Object.freeze({}) as Attrs;

function argsOf(event: Event): Attrs {
  return isObject(event.args) ? (event.args as Attrs) : NO_ARGS;
}

/** async and flow ids: `id`, or `id2: {global | local}` (local ids are per process) */
function eventId(event: Event, pidKey: string): string | null {
  const id = idOf(event.id);
  if (id !== null) return `${typeof id}:${id}`;
  if (isObject(event.id2)) {
    const global = idOf(event.id2.global);
    if (global !== null) return `global:${global}`;
    const local = idOf(event.id2.local);
    if (local !== null) return `local:${pidKey}:${local}`;
  }
  return null;
}

/**
 * The innermost slice of `stack` not yet ended, taken off it with the ended ones above it (they
 * were ended through another stack: see ChromeAsyncTrack.open), or null.
 */
function innermostOpen(stack: ChromeSlice[] | undefined): ChromeSlice | null {
  if (stack === undefined) return null;
  while (stack.length > 0 && stack[stack.length - 1].endUs !== null) stack.pop();
  return stack.pop() ?? null;
}

/**
 * The async tracks of a process that has none (most): a Map each cost 300,000 tiny processes
 * about 180 bytes apiece. Never written: addAsync gives the process a Map of its own first.
 */
const NO_TRACKS: Map<string, ChromeAsyncTrack> = new Map();

/**
 * The list of a thread or process that has nothing in it yet (most threads' instants and open
 * B events): shared, and frozen so that a push onto it fails loudly; pushTo replaces it.
 */
const NONE: never[] = Object.freeze([]) as unknown as never[];

/**
 * Pushes `item` onto `list` of `holder`, the first one as an array of one: V8 grows an empty
 * array to 17 slots on its first push, and most of 300,000 tiny threads hold a single slice.
 */
function pushTo<H, K extends keyof H>(
  holder: H,
  key: K,
  item: H[K] extends readonly (infer T)[] ? T : never,
): void {
  const list = holder[key] as unknown[];
  if (list.length === 0) holder[key] = [item] as H[K];
  else list.push(item);
}

/** Keys that tell 1 from "1" apart: a string pid is a different process from a number pid. */
const keyOf = (id: ChromeId): string => (typeof id === 'number' ? `#${id}` : `"${id}`);

/**
 * A process's threads are looked through up to this many; past it they are found in a map of
 * the process's own (a key string and a map entry per thread were 300,000 of each for 300,000
 * one-thread processes).
 */
const LISTED_THREADS = 8;

class EventImporter {
  private nextSpanId = 0;
  /**
   * Names and categories repeat millions of times (every `aten::to`), and JSON.parse makes a
   * new string for each: one copy of each is kept instead.
   */
  private readonly strings = new Map<string, string>();
  private readonly catOnly = new Map<string, Attrs>();
  /** per flow category, each flow id's key (flowKey) */
  private readonly flowKeys = new Map<string | null, Map<string | number, number>>();
  private flowKeyCount = 0;
  /** args' arrays and objects, one copy of each (shareValues) */
  private readonly sharedValues = new SharedValues(MAX_SHARED_COST, MAX_SHARED_VALUES);
  /** the process of the event being imported */
  private current: ChromeProcess | null = null;
  /** the threads of a process of more than LISTED_THREADS, by tid */
  private readonly manyThreads = new Map<ChromeProcess, Map<ChromeId, ChromeThread>>();
  private lastProcess: ChromeProcess | null = null;
  private lastThread: ChromeThread | null = null;
  private lastThreadOf: ChromeProcess | null = null;

  constructor(private readonly trace: ChromeTrace) {}

  /** Imports one event; returns why it was skipped, or null. */
  add(value: unknown): string | null {
    if (!isObject(value)) return 'is not an object';
    const ph = value.ph;
    if (typeof ph !== 'string' || ph === '') return 'has no ph';
    if (isObject(value.args)) {
      this.trace.deepValuesCut += cutDeepValues(value.args);
      this.shareValues(value.args);
    }
    const pid = value.pid === undefined ? 0 : idOf(value.pid);
    const tid = value.tid === undefined ? pid : idOf(value.tid);
    if (pid === null || tid === null)
      return 'has a pid or tid that is neither a number nor a string';
    if (ph === 'M') return this.addMetadata(value, pid, tid);
    const ts = microseconds(value.ts);
    if (ts === null) return `(ph ${ph}) has no ts`;
    if (!timeInRange(ts / 1e6)) return `(ph ${ph}) has a ts out of range (${ts} us)`;
    const name = this.intern(
      this.cut(
        typeof value.name === 'string'
          ? value.name
          : value.name === undefined
            ? ''
            : String(value.name),
      ),
    );
    const cat = typeof value.cat === 'string' ? this.intern(value.cat) : null;
    const process = this.process(pid);
    this.current = process;
    switch (ph) {
      case 'X': {
        const dur = value.dur === undefined ? null : microseconds(value.dur);
        if (value.dur !== undefined && (dur === null || dur < 0 || !timeInRange((ts + dur) / 1e6)))
          return `(ph X) has a bad dur`;
        const thread = this.thread(process, tid);
        const slice = this.slice(
          name,
          cat,
          ts,
          dur === null ? null : ts + dur,
          'complete',
          argsOf(value),
        );
        pushTo(thread, 'slices', slice);
        this.bindV2(value, slice);
        this.trace.counts.complete++;
        this.seen(dur === null ? ts : ts + dur);
        return null;
      }
      case 'B': {
        const thread = this.thread(process, tid);
        const slice = this.slice(name, cat, ts, null, 'begin-end', argsOf(value));
        pushTo(thread, 'slices', slice);
        pushTo(thread, 'open', slice);
        this.bindV2(value, slice);
        this.trace.counts.beginEnd++;
        this.seen(ts);
        return null;
      }
      case 'E': {
        const thread = this.thread(process, tid);
        // an E ends the innermost open B of its thread, whatever its name (as Chrome does)
        const slice = thread.open.length > 0 ? thread.open.pop() : undefined;
        if (slice) {
          slice.endUs = Math.max(ts, slice.startUs);
          slice.endArgs = argsOf(value);
        } else {
          pushTo(thread, 'instants', this.instant(name, cat, ts, argsOf(value), true));
          this.trace.counts.unmatchedEnds++;
        }
        this.seen(ts);
        return null;
      }
      case 'i':
      case 'I':
      case 'R': {
        const instant = this.instant(name, cat, ts, argsOf(value), false);
        const scope = value.s;
        if (scope === 'g') this.trace.globalInstants.push(instant);
        else if (scope === 'p') pushTo(process, 'instants', instant);
        else pushTo(this.thread(process, tid), 'instants', instant);
        this.trace.counts.instants++;
        this.seen(ts);
        return null;
      }
      case 'b':
      case 'e':
      case 'n':
      case 'S':
      case 'F':
      case 'T':
      case 'p': {
        const id = eventId(value, keyOf(pid));
        if (id === null) return `(ph ${ph}) has no id`;
        this.addAsync(process, ph, `${cat ?? ''}|${id}`, name, cat, ts, argsOf(value));
        this.seen(ts);
        return null;
      }
      case 's':
      case 't':
      case 'f': {
        const key = this.flowKey(cat, value, pid);
        if (key === null) return `(ph ${ph}) has no id`;
        this.trace.flowSteps.push(
          key,
          FLOW_PHASE[ph],
          ts,
          this.thread(process, tid),
          ph !== 'f' || value.bp === 'e',
        );
        this.seen(ts);
        return null;
      }
      case 'C': {
        // counters are series over time, not bars: counted and named in a notice
        const args = argsOf(value);
        for (const series of Object.keys(args)) {
          const key = `${String(pid)} ${name}${series === 'value' ? '' : `.${series}`}`;
          this.trace.counterSeries.set(key, (this.trace.counterSeries.get(key) ?? 0) + 1);
        }
        this.trace.counterSamples++;
        this.seen(ts);
        return null;
      }
      default:
        this.trace.otherPhases.set(ph, (this.trace.otherPhases.get(ph) ?? 0) + 1);
        return null;
    }
  }

  /**
   * The arrays and objects in `args` (a Kineto op's input shapes and types, a kernel's grid and
   * block) replaced by one shared, frozen copy of each text: the same few repeat in every event,
   * and each copy JSON.parse made was kept to the end (a third of a GPU rank's rows). A copy let
   * go of at once also dies young, where the collector's work is cheap.
   */
  private shareValues(args: Event): void {
    for (const key in args) {
      const value = args[key];
      if (typeof value !== 'object' || value === null || key === '__proto__') continue;
      const shared = this.sharedValues.share(value);
      if (shared !== value) args[key] = shared;
    }
  }

  /**
   * The number of a flow event's (cat, id), or null when it has none: a number id is its own key
   * in its category's map (no text made for it), any other as eventId writes it.
   */
  private flowKey(cat: string | null, event: Event, pid: ChromeId): number | null {
    const id = typeof event.id === 'number' ? event.id : eventId(event, keyOf(pid));
    if (id === null) return null;
    let ids = this.flowKeys.get(cat);
    if (ids === undefined) this.flowKeys.set(cat, (ids = new Map()));
    let key = ids.get(id);
    if (key === undefined) ids.set(id, (key = this.flowKeyCount++));
    return key;
  }

  /** B events never ended stay open: they are drawn to the trace's last timestamp. */
  finish(): void {
    this.trace.sliceCount = this.nextSpanId;
    for (const process of this.trace.processes.values()) {
      for (const thread of process.threads) thread.open = NONE;
      for (const track of process.asyncTracks.values()) {
        track.open.length = 0;
        track.openByName.clear();
      }
    }
  }

  private addMetadata(event: Event, pid: ChromeId, tid: ChromeId): string | null {
    const args = argsOf(event);
    const process = this.process(pid);
    switch (event.name) {
      case 'process_name':
        process.name = args.name === undefined ? null : this.cut(String(args.name));
        return null;
      case 'process_labels':
        process.labels = args.labels === undefined ? null : this.cut(String(args.labels));
        return null;
      case 'process_sort_index':
        process.sortIndex = typeof args.sort_index === 'number' ? args.sort_index : null;
        return null;
      case 'thread_name':
        this.thread(process, tid).name =
          args.name === undefined ? null : this.cut(String(args.name));
        return null;
      case 'thread_sort_index':
        this.thread(process, tid).sortIndex =
          typeof args.sort_index === 'number' ? args.sort_index : null;
        return null;
      default:
        return null; // other metadata (process_uptime_seconds, num_cpus, ...) is not shown
    }
  }

  /**
   * b/e (and the legacy S/F) nest as a stack on their (cat, id) track: an e ends the innermost
   * open b of the same name, else the innermost; n (and T, p) are instants on the track.
   */
  private addAsync(
    process: ChromeProcess,
    ph: string,
    key: string,
    name: string,
    cat: string | null,
    ts: number,
    args: Attrs,
  ): void {
    if (process.asyncTracks === NO_TRACKS) process.asyncTracks = new Map();
    let track = process.asyncTracks.get(key);
    if (!track) {
      track = {
        label: name,
        slices: [],
        instants: NONE,
        open: [],
        openByName: new Map(),
      } satisfies ChromeAsyncTrack;
      process.asyncTracks.set(key, track);
    }
    if (ph === 'b' || ph === 'S') {
      const slice = this.slice(name, cat, ts, null, 'async', args);
      track.slices.push(slice);
      track.open.push(slice);
      const named = track.openByName.get(name);
      if (named) named.push(slice);
      else track.openByName.set(name, [slice]);
      this.trace.counts.async++;
    } else if (ph === 'e' || ph === 'F') {
      // ids are reused by thousands of slices: a scan of the open ones per e was quadratic
      const slice = innermostOpen(track.openByName.get(name)) ?? innermostOpen(track.open);
      if (slice === null) {
        pushTo(track, 'instants', this.instant(name, cat, ts, args, true));
        this.trace.counts.unmatchedEnds++;
        return;
      }
      slice.endUs = Math.max(ts, slice.startUs);
      slice.endArgs = args;
    } else {
      pushTo(track, 'instants', this.instant(name, cat, ts, args, false));
      this.trace.counts.instants++;
    }
  }

  /** flow v2: a slice carrying bind_id with flow_out starts a flow, with flow_in ends one */
  private bindV2(event: Event, slice: ChromeSlice): void {
    const bindId = idOf(event.bind_id);
    if (bindId === null) return;
    if (event.flow_out === true)
      this.trace.boundFlows.push({ bindId: String(bindId), slice, out: true });
    if (event.flow_in === true)
      this.trace.boundFlows.push({ bindId: String(bindId), slice, out: false });
  }

  /**
   * The event's args with its category as `cat` (shown in details, searched): written into the
   * args object JSON.parse made for this event, or one shared `{cat}` per category for events
   * without args, so that no event costs a copy of its args.
   */
  private withCat(args: Attrs, cat: string | null): Attrs {
    if (cat === null || args.cat !== undefined) return args;
    if (args !== NO_ARGS) {
      args.cat = cat;
      return args;
    }
    let only = this.catOnly.get(cat);
    if (!only) this.catOnly.set(cat, (only = Object.freeze({ cat }) as Attrs));
    return only;
  }

  /**
   * A slice's args with its category (withCat), an event's own args kept as columns (see
   * ArgsColumns: objects that lived to the end of the read): shared ones stay as they are.
   */
  private keptArgs(args: Attrs, name: string, cat: string | null): Attrs | number {
    const kept = this.withCat(args, cat);
    if (args === NO_ARGS) return kept;
    return this.trace.argsColumns.put(kept, name) ?? kept;
  }

  /**
   * A name (of an event, a thread, a process) cut to MAX_NAME_CHARS, counted: every item of a
   * thread repeats its lane label in rows and exports, and a 1 MB thread name made `rows` fail
   * with "Invalid string length" after 2 GB.
   */
  private cut(name: string): string {
    if (name.length <= MAX_NAME_CHARS) return name;
    this.trace.namesCut++;
    return `${name.slice(0, MAX_NAME_CHARS)}...<truncated:${name.length - MAX_NAME_CHARS}>`;
  }

  private intern(text: string): string {
    const known = this.strings.get(text);
    if (known !== undefined) return known;
    // names that never repeat (ids in them) are not worth a table entry each past this many
    if (this.strings.size < 200_000) this.strings.set(text, text);
    return text;
  }

  private seen(us: number): void {
    if (us > this.trace.lastUs) this.trace.lastUs = us;
  }

  private slice(
    name: string,
    cat: string | null,
    startUs: number,
    endUs: number | null,
    kind: ChromeSlice['kind'],
    args: Attrs,
  ): ChromeSlice {
    return {
      spanIndex: this.nextSpanId++,
      args: this.keptArgs(args, name, cat),
      rowTraceId: this.current?.traceId ?? '',
      name,
      cat,
      startUs,
      endUs,
      kind,
      endArgs: NO_ARGS,
      depth: 0,
      parent: null,
      flowsFrom: null,
    };
  }

  private instant(
    name: string,
    cat: string | null,
    tsUs: number,
    args: Attrs,
    unmatchedEnd: boolean,
  ): ChromeInstant {
    return { name, cat, tsUs, args: this.withCat(args, cat), unmatchedEnd };
  }

  private process(pid: ChromeId): ChromeProcess {
    // consecutive events are nearly always of one process and thread
    if (this.lastProcess !== null && this.lastProcess.pid === pid) return this.lastProcess;
    let process = this.trace.processes.get(pid);
    if (!process) {
      process = {
        pid,
        traceId: `pid ${String(pid)}`,
        name: null,
        labels: null,
        sortIndex: null,
        threads: NONE,
        asyncTracks: NO_TRACKS,
        instants: NONE,
      };
      this.trace.processes.set(pid, process);
    }
    this.lastProcess = process;
    return process;
  }

  /**
   * The thread `tid` of `process`: among its few threads, or in its map when it has many (not
   * a Map per process: most have one thread).
   */
  private thread(process: ChromeProcess, tid: ChromeId): ChromeThread {
    const last = this.lastThread;
    if (last !== null && last.tid === tid && this.lastThreadOf === process) return last;
    const byTid = this.manyThreads.get(process);
    let thread = byTid === undefined ? listedThread(process.threads, tid) : byTid.get(tid);
    if (!thread) {
      thread = { tid, name: null, sortIndex: null, slices: NONE, instants: NONE, open: NONE };
      pushTo(process, 'threads', thread);
      if (byTid !== undefined) byTid.set(tid, thread);
      else if (process.threads.length > LISTED_THREADS) {
        this.manyThreads.set(process, new Map(process.threads.map((t) => [t.tid, t])));
      }
    }
    this.lastThread = thread;
    this.lastThreadOf = process;
    return thread;
  }
}

/** The thread of `tid` among `threads` (1 and "1" apart), or undefined. */
function listedThread(threads: readonly ChromeThread[], tid: ChromeId): ChromeThread | undefined {
  for (let k = 0; k < threads.length; k++) if (threads[k].tid === tid) return threads[k];
  return undefined;
}
