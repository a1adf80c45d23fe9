import { bytesSource } from '../../src-main/core/bytes/byte-source';
import { openTraceFile } from '../../src-main/core/open/open-trace-file';

/** A Chrome trace of `events` ({traceEvents}), opened as the app opens a file. */
export function openChromeEvents(events: object[], name = 'trace.json') {
  return openTraceFile([
    bytesSource(name, new TextEncoder().encode(JSON.stringify({ traceEvents: events }))),
  ]);
}
