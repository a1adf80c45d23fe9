import { ItemPacker } from '../../rows/packed-items';
import type { ByteSource } from '../../bytes/byte-source';
import { countOf } from '../../model/count-of';
import { MAX_VALUE_DEPTH } from '../../model/cut-deep-values';
import { packBlocks } from '../../rows/pack-blocks';
import { defineFormat, type FormatOpened, type FormatOpenOptions } from '../format-descriptor';
import { bindFlows } from './bind-flows';
import { nestSlices } from './open/nest-slices';
import { buildChromeRows } from './build-chrome-rows';
import type { ChromeTrace } from './chrome-trace';
import { importTraceEvents, MAX_NAME_CHARS } from './import-trace-events';
import { cutNotice } from './scan-trace-json';
import { sniffChromeTrace } from './sniff-chrome-trace';
import { NO_SAMPLES } from '../../model/sample-facts';

/**
 * Chrome Trace Event / Perfetto JSON (torch.profiler, Ray's timeline, AReaL): TRACE_MODEL
 * section 8. One row per process, a lane per thread and nesting depth, async tracks packed
 * below, flows as links (arrows), counters named in a notice.
 */
export const chromeTraceFormat = defineFormat({
  id: 'chrome-trace',
  labels: {
    name: 'Chrome trace (Trace Event JSON)',
    short: 'CT',
    noun: 'Chrome trace',
    expected: 'a Chrome trace (Trace Event JSON)',
    samples: 'processes',
    source: 'process',
    search: 'process, span names, args',
  },
  sniff: (head) => sniffChromeTrace(head),
  // reading counts the events array's elements; building has no count to say
  progressCounts: { reading: 'events' },
  open: openChromeTrace,
});

function openChromeTrace(sources: ByteSource[], options: FormatOpenOptions): FormatOpened {
  const source = sources[0];
  const trace = importTraceEvents(source, {
    onProgress: (bytesRead, events) =>
      options.onProgress?.({ bytesRead, samplesRead: events, phase: 'reading' }),
    shouldCancel: options.shouldCancel,
  });
  options.onStepEnd?.('read');
  options.onProgress?.({ bytesRead: source.size, samplesRead: 0, phase: 'building' });
  for (const process of trace.processes.values()) {
    for (const thread of process.threads) nestSlices(thread.slices);
    for (const track of process.asyncTracks.values()) nestSlices(track.slices);
  }
  const flows = bindFlows(trace);
  const notices = noticesOf(trace, flows.unbound);
  // first: what a user must know before trusting the rest (events after the cut are missing)
  if (trace.cut !== null) notices.unshift(cutNotice(trace.cut, source.name));
  // the global instants' row is not a process (the rows' build empties the trace)
  const globalRows = trace.globalInstants.length > 0 ? 1 : 0;
  const rows = buildChromeRows(trace, packBlocks, new ItemPacker());
  return {
    rows,
    samples: NO_SAMPLES,
    perf: {},
    notices,
    // processes with something to draw
    sampleCount: rows.length - globalRows,
    untracedSamples: 0,
    rolloutId: null,
    // the count: spans are the complete (X) and begin/end (B/E) slices
    counts: {
      spans: trace.counts.complete + trace.counts.beginEnd,
      events: trace.counts.instants,
      links: flows.links,
    },
  };
}

function noticesOf(trace: ChromeTrace, unboundFlows: number): string[] {
  const notices: string[] = [];
  const { skipped, counts } = trace;
  if (skipped.count > 0) {
    notices.push(`${countOf(skipped.count, 'event')} skipped: ${skipped.examples.join('; ')}`);
  }
  if (counts.async > 0) notices.push(`${countOf(counts.async, 'async span')} on their own lanes`);
  const open = openSliceCount(trace);
  if (open > 0) {
    notices.push(`${countOf(open, 'span')} never ended: drawn to the last timestamp`);
  }
  if (counts.unmatchedEnds > 0) {
    notices.push(`${countOf(counts.unmatchedEnds, 'end')} without a begin (E or e events)`);
  }
  if (unboundFlows > 0) {
    notices.push(`${countOf(unboundFlows, 'flow event')} not bound to any slice`);
  }
  if (trace.counterSamples > 0) {
    const names = [...trace.counterSeries.keys()];
    notices.push(
      `${countOf(trace.counterSamples, 'counter sample')} in ${countOf(names.length, 'series', 'series')} (${names.slice(0, 5).join(', ')}${names.length > 5 ? ', ...' : ''}): not drawn`,
    );
  }
  if (trace.otherPhases.size > 0) {
    const phases = [...trace.otherPhases].map(([ph, n]) => `${n} ph ${ph}`).join(', ');
    notices.push(`events not drawn: ${phases}`);
  }
  if (trace.deepValuesCut > 0) {
    notices.push(
      `${countOf(trace.deepValuesCut, 'value')} in args nested deeper than ${MAX_VALUE_DEPTH} levels: cut to a note`,
    );
  }
  if (trace.namesCut > 0) {
    notices.push(
      `${countOf(trace.namesCut, 'name')} longer than ${MAX_NAME_CHARS} characters: cut`,
    );
  }
  if (trace.unclosedArray) notices.push('the event array is not closed (a writer that stopped)');
  if (trace.displayTimeUnit !== null) {
    notices.push(`displayTimeUnit ${trace.displayTimeUnit} (times are read as microseconds)`);
  }
  return notices;
}

function openSliceCount(trace: ChromeTrace): number {
  let n = 0;
  for (const process of trace.processes.values()) {
    for (const thread of process.threads) for (const s of thread.slices) if (s.endUs === null) n++;
    for (const track of process.asyncTracks.values())
      for (const s of track.slices) if (s.endUs === null) n++;
  }
  return n;
}
