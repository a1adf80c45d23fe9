import type { ByteSource } from '../../bytes/byte-source';
import { NO_SAMPLES } from '../../model/sample-facts';
import { packRows } from '../../rows/packed-items';
import { defineFormat, type FormatOpened, type FormatOpenOptions } from '../format-descriptor';
import { sniffJsonLine } from '../json-lines/read-json-lines';
import { buildSkeletonRows } from './open/build-skeleton-rows';
import { isSkeletonRecord, readSkeletonRecords } from './read-skeleton-records';

/**
 * The skeleton format: a template to copy, not a format the app opens (it is not in
 * registry.ts). JSON lines of spans, `{"skeleton": 1, "row", "name", "start_sec", "end_sec"}`,
 * one row per `row`. To add a format (docs/ARCHITECTURE.md, "Adding a format"):
 *   cp -r src-main/core/formats/skeleton src-main/core/formats/<id>
 * then rename the id, labels and keys, add one line to registry.ts, and copy its test
 * (tests/unit/formats/skeleton.test.ts) and fixture folder (tests/fixtures/skeleton/).
 */
export const skeletonFormat = defineFormat({
  // a stable key (`summary --json` prints it): kebab-case, unique in the registry
  id: 'skeleton',
  // words for people; never branched on
  labels: {
    name: 'skeleton spans',
    short: 'SK',
    noun: 'skeleton file',
    expected: 'skeleton spans (JSON lines)',
    samples: 'spans',
    source: 'row',
    search: 'span names',
  },
  // what the app may ask of the file beyond rows and spans; anything not named is false and
  // hides what needs it (core/formats/format-capabilities.ts), e.g. `{ sourceGroups: true }`
  // for a rotated set of files, `{ samples: true }` when getSample answers for each row
  capabilities: {},
  // what a progress report counts while reading (left out: samples, if the format has them)
  progressCounts: { reading: 'records' },
  // a record carries its text: the first line may be longer than the 64 KiB head
  sniffReach: 'first-line',
  sniff: (head) => sniffJsonLine(head, isSkeletonRecord),
  open: openSkeleton,
});

function openSkeleton(sources: ByteSource[], options: FormatOpenOptions): FormatOpened {
  const read = readSkeletonRecords(
    sources[0],
    (bytesRead, records) =>
      options.onProgress?.({ bytesRead, samplesRead: records, phase: 'reading' }),
    options.shouldCancel,
  );
  options.onStepEnd?.('read');
  const rows = buildSkeletonRows(read.records);
  return {
    // packed as each row is built (a format with many rows packs them as it goes: packRow)
    rows: packRows(rows),
    samples: NO_SAMPLES,
    perf: {},
    notices: read.skippedNotice === null ? [] : [read.skippedNotice],
    sampleCount: read.records.length,
    untracedSamples: 0,
    skippedLines: read.skippedLines,
    rolloutId: null,
    counts: { spans: read.records.length, events: 0, links: 0 },
  };
}
