import { packRows } from '../../rows/packed-items';
import type { ByteSource } from '../../bytes/byte-source';
import { defineFormat, type FormatOpened, type FormatOpenOptions } from '../format-descriptor';
import { readOtlp, readRangeToColumns, sniffOtlp, type RangeReader } from './read-otlp';
import { findRotatedSet } from './rotated-set';
import { NO_SAMPLES } from '../../model/sample-facts';

/** OpenTelemetry traces as OTLP/JSON lines (SGLang, ROLL, any exporter): TRACE_MODEL section 6. */
export const otlpFormat = defineFormat({
  id: 'otlp',
  labels: {
    name: 'OpenTelemetry JSON lines',
    short: 'OTel',
    noun: 'OpenTelemetry trace',
    expected: 'OpenTelemetry JSON lines',
    samples: 'traces',
    source: 'service',
    search: 'trace id, service, status, attrs, span names',
  },
  capabilities: { sourceGroups: true, namedRows: true },
  // spans as the lines are read, then the traces their rows are built of
  progressCounts: { reading: 'spans', building: 'traces' },
  sniff: (head) => sniffOtlp(head),
  // an empty file holds no spans: a trace file that was never written to
  claimUnsniffed: (_name, size) => size === 0,
  open: openOtlp,
  groupSources: findRotatedSet,
  readPart: (source, from, helper) => {
    const { read, transfer } = readRangeToColumns(
      source,
      from,
      (bytes) => helper.onBytes(bytes),
      () => helper.onPosting(),
    );
    return { part: read, transfer };
  },
});

function openOtlp(sources: ByteSource[], options: FormatOpenOptions): FormatOpened {
  const doc = readOtlp(sources, {
    onProgress: (p) => options.onProgress?.({ ...p, phase: 'reading' }),
    shouldCancel: options.shouldCancel,
    joinByBootstrapRoom: options.joinByBootstrapRoom,
    rangeReader: options.partReader as RangeReader | undefined,
    onRead: () => options.onStepEnd?.('read'),
  });
  const bytes = sources.reduce((sum, source) => sum + source.size, 0);
  options.onProgress?.({ bytesRead: bytes, samplesRead: doc.rows.length, phase: 'building' });
  return {
    rows: packRows(doc.rows),
    samples: NO_SAMPLES,
    perf: {},
    notices: [...doc.notices],
    sampleCount: doc.traces,
    untracedSamples: 0,
    skippedLines: doc.skippedLines,
    rolloutId: null,
    counts: { spans: doc.spans, events: doc.events, links: doc.links },
    bootstrapRooms: doc.bootstrapRooms,
    joinedByBootstrapRoom: doc.bootstrapRooms > 0 && (options.joinByBootstrapRoom ?? true),
    ...(doc.helperShare !== undefined ? { helperShare: doc.helperShare } : {}),
  };
}
