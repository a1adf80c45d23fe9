import type { ByteSource } from '../../bytes/byte-source';
import { defineFormat, type FormatOpened, type FormatOpenOptions } from '../format-descriptor';
import { LaneEnds } from '../../rows/lane-ends';
import { countedRowPacker } from '../../rows/counted-row-packer';
import { comparePyStr } from '../../rows/python-values';
import { buildTimelineRows, MAX_PROCESS_ROWS } from './build-timeline-rows';
import { parseTimelineRecords, sniffTimeline } from './parse-timeline-records';
import { NO_SAMPLES } from '../../model/sample-facts';
import { countOf } from '../../model/count-of';
import { MAX_VALUE_DEPTH } from '../../model/cut-deep-values';

/**
 * slime's trainer communication timeline (`--communication-timeline`, TRACE_MODEL section 7):
 * JSON lines, one file per trainer process, schema 1 or 2. A row per (role, rank).
 */
export const slimeCommTimelineFormat = defineFormat({
  id: 'slime-comm-timeline',
  labels: {
    name: 'slime trainer communication timeline',
    short: 'TL',
    noun: 'trainer timeline',
    expected: 'a slime trainer communication timeline',
    samples: 'records',
    source: 'process',
    search: 'operation, attrs',
  },
  capabilities: { trainerTimeline: true },
  progressCounts: { reading: 'records' },
  sniff: (head) => sniffTimeline(head),
  open: openTimeline,
});

function openTimeline(sources: ByteSource[], options: FormatOpenOptions): FormatOpened {
  const source = sources[0];
  const read = parseTimelineRecords(
    source,
    (bytesRead, records) =>
      options.onProgress?.({ bytesRead, samplesRead: records, phase: 'reading' }),
    options.shouldCancel,
  );
  options.onStepEnd?.('read');
  const { rows, foldedProcesses } = buildTimelineRows(read.records, read.processes, {
    freeLanes: () => new LaneEnds(),
    packer: countedRowPacker(),
    compareNames: comparePyStr,
  });
  const spans = read.records.filter((r) => r.recordType === 'span').length;
  const notices: string[] = [];
  notices.push(`schema_version ${read.schemaVersions.join(', ')}`);
  if (foldedProcesses > 0) {
    notices.push(
      `${read.processes.length.toLocaleString('en-US')} processes (role, rank): the first ${MAX_PROCESS_ROWS.toLocaleString('en-US')} are rows, the other ${foldedProcesses.toLocaleString('en-US')} folded into the last row`,
    );
  }
  if (read.sequenceHoles.length > 0) {
    notices.push(
      `sequence_id holes (cancelled spans, normal): ${read.sequenceHoles.slice(0, 20).join(', ')}${read.sequenceHoleCount > 20 ? `, ... (${read.sequenceHoleCount} in all)` : ''}`,
    );
  }
  if (read.skippedNotice !== null) notices.push(read.skippedNotice);
  if (read.deepValuesCut > 0) {
    notices.push(
      `${countOf(read.deepValuesCut, 'value')} nested deeper than ${MAX_VALUE_DEPTH} levels: cut to a note`,
    );
  }
  return {
    rows,
    samples: NO_SAMPLES,
    perf: {},
    notices,
    sampleCount: read.records.length,
    untracedSamples: 0,
    skippedLines: read.skippedLines,
    rolloutId: null,
    counts: { spans, events: read.records.length - spans, links: 0 },
  };
}
