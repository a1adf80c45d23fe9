import type { FormatDescriptor } from './format-descriptor';
import { fixedSniffHead, type SniffHead } from './sniff-head';
import { slimeFormat } from './slime/descriptor';
import { slimeTrainFormat } from './slime-train/descriptor';
import { otlpFormat } from './otlp/descriptor';
import { chromeTraceFormat } from './chrome/descriptor';
import { gpuProfileFormat } from './chrome/open/gpu-profile';
import { slimeCommTimelineFormat } from './slime-comm-timeline/descriptor';
import { sglangRequestMetricsFormat } from './sglang-request-metrics/descriptor';

/**
 * Every format, in sniffing order; nothing else knows which formats exist. Adding a format is
 * its folder with a descriptor, one line here, and its tests (docs/ARCHITECTURE.md).
 * Sniffing looks at content, not names: SGLang's collector file is named .json and holds lines.
 */
export const FORMATS = [
  // before slime's: both are torch files; the train dump is told by its keys
  slimeTrainFormat,
  slimeFormat,
  // a Kineto trace is a Chrome trace too: the GPU profile sniffs first
  gpuProfileFormat,
  chromeTraceFormat,
  slimeCommTimelineFormat,
  sglangRequestMetricsFormat,
  otlpFormat,
] as const;

/** The id of a registered format: derived from the list, so a new format extends it. */
export type FormatId = (typeof FORMATS)[number]['id'];

/** A list of formats to open with: FORMATS, or (in a test) FORMATS and one more. */
export type FormatList = readonly FormatDescriptor[];

export { SNIFF_BYTES, sniffHeadAt, sniffHeadOf, type SniffHead } from './sniff-head';

/**
 * Whether `format` sniffs this file as its own, handed the part of the head it asks for
 * (sniffReach). A head given as bytes alone is all a 'first-line' format sees.
 */
function sniffs(format: FormatDescriptor, head: Uint8Array | SniffHead, name: string): boolean {
  const sniffHead = head instanceof Uint8Array ? fixedSniffHead(head) : head;
  const bytes = format.sniffReach === 'first-line' ? sniffHead.throughFirstLine() : sniffHead.bytes;
  return format.sniff(bytes, name);
}

/** The format whose sniff accepts this head, else the first that claims the file anyway. */
export function findFormat(
  head: Uint8Array | SniffHead,
  name: string,
  size: number,
  formats: FormatList = FORMATS,
): FormatDescriptor | null {
  return (
    formats.find((format) => sniffs(format, head, name)) ??
    formats.find((format) => format.claimUnsniffed?.(name, size) ?? false) ??
    null
  );
}

export function formatById(id: string, formats: FormatList = FORMATS): FormatDescriptor {
  const format = formats.find((f) => f.id === id);
  if (!format) throw new Error(`no format ${id}`);
  return format;
}

/** What a file that no format reads was expected to be: "a slime rollout dump (.pt) nor ...". */
export function expectedFormats(formats: FormatList = FORMATS): string {
  const names = formats.map((f) => f.labels.expected);
  return names.length <= 1
    ? (names[0] ?? 'a known format')
    : `${names.slice(0, -1).join(', ')} nor ${names[names.length - 1]}`;
}

/** The files a folder holds as one source group (a rotated set), oldest first; [] for none. */
export function folderSourceGroup(path: string, formats: FormatList = FORMATS): string[] {
  for (const format of formats) {
    const group = format.groupSources?.(path) ?? [];
    if (group.length > 0) return group;
  }
  return [];
}

/** The format whose content this head is (no claims by name or size): for scanning a folder. */
export function sniffFormat(
  head: Uint8Array | SniffHead,
  name: string,
  formats: FormatList = FORMATS,
): FormatDescriptor | null {
  return formats.find((format) => sniffs(format, head, name)) ?? null;
}

/** The files opened together with `path` as one trace (itself alone for most formats). */
export function siblingFiles(
  formatId: string,
  path: string,
  formats: FormatList = FORMATS,
): string[] {
  return formats.find((format) => format.id === formatId)?.groupSources?.(path) ?? [path];
}

/** Whether a file of this format is one rollout of samples (a run's trends: a point per file). */
export function holdsRolloutSamples(formatId: string, formats: FormatList = FORMATS): boolean {
  const capabilities = formats.find((format) => format.id === formatId)?.capabilities;
  // records joined to a rollout's samples (a train dump's, request metrics) are no rollout
  return (capabilities?.samples ?? false) && capabilities?.joinRecords !== true;
}

/** Whether a file of this format holds records a run joins to rollout samples (train dump, request metrics). */
export function holdsJoinRecords(formatId: string, formats: FormatList = FORMATS): boolean {
  return formats.find((format) => format.id === formatId)?.capabilities.joinRecords ?? false;
}

/** Whether a file of this format is a trainer's timeline (a run's trainer lanes). */
export function holdsTrainerTimeline(formatId: string, formats: FormatList = FORMATS): boolean {
  return formats.find((format) => format.id === formatId)?.capabilities.trainerTimeline ?? false;
}

/** The file `path` copies, as its format says (a gzipped rotated hour's plain file), or null. */
export function copiedFile(
  formatId: string,
  path: string,
  formats: FormatList = FORMATS,
): string | null {
  return formats.find((format) => format.id === formatId)?.copyOf?.(path) ?? null;
}
