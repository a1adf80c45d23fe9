import type { FileFormat } from '../api/trace-api';
import { sniffSlimeDump } from './slime/read-slime-dump';
import { sniffOtlp } from './otlp/read-otlp';
import { findRotatedSet } from './otlp/rotated-set';

interface FormatEntry {
  format: FileFormat;
  sniff: (head: Uint8Array) => boolean;
  /** the files a file is read together with (a rotated set, oldest first), itself included */
  siblings?: (path: string) => string[];
  /** one file is one rollout of samples (a run's trends plot one point per such file) */
  rolloutSamples?: boolean;
}

/**
 * The ordered list of readers; nothing else knows which formats exist. Sniffing looks at
 * content only: SGLang's collector file is named .json and holds JSON lines.
 */
const FORMATS: FormatEntry[] = [
  { format: 'slime', sniff: sniffSlimeDump, rolloutSamples: true },
  { format: 'otlp', sniff: sniffOtlp, siblings: findRotatedSet },
];

export function sniffFormat(head: Uint8Array): FileFormat | null {
  for (const { format, sniff } of FORMATS) if (sniff(head)) return format;
  return null;
}

/** The files opened together with `path` as one trace (itself alone for most formats). */
export function siblingFiles(format: FileFormat, path: string): string[] {
  return FORMATS.find((entry) => entry.format === format)?.siblings?.(path) ?? [path];
}

/** Whether a file of this format is one rollout of samples. */
export function holdsRolloutSamples(format: FileFormat): boolean {
  return FORMATS.find((entry) => entry.format === format)?.rolloutSamples ?? false;
}
