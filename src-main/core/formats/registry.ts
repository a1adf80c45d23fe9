import type { FileFormat } from '../api/trace-api';
import { sniffSlimeDump } from './slime/read-slime-dump';
import { sniffOtlp } from './otlp/read-otlp';

/**
 * The ordered list of readers; nothing else knows which formats exist. Sniffing looks at
 * content only: SGLang's collector file is named .json and holds JSON lines.
 */
const SNIFFERS: { format: FileFormat; sniff: (head: Uint8Array) => boolean }[] = [
  { format: 'slime', sniff: sniffSlimeDump },
  { format: 'otlp', sniff: sniffOtlp },
];

export function sniffFormat(head: Uint8Array): FileFormat | null {
  for (const { format, sniff } of SNIFFERS) if (sniff(head)) return format;
  return null;
}
