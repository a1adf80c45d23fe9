import type { OpenProgressReport } from '../core/open/open-trace-file';
import { terminalText } from '../core/bytes/terminal-text';

/** How long a command runs quietly before it shows progress. */
const QUIET_MS = 2000;
const REDRAW_MS = 200;

/**
 * Progress of opening a file, on stderr when it is a terminal and the open takes longer than
 * about 2 s: one line redrawn in place, erased when done. Silent in pipes and scripts.
 */
export function terminalProgress(
  name: string,
  bytesTotal: number,
  stream: NodeJS.WriteStream = process.stderr,
) {
  const started = Date.now();
  let drawn = 0;
  let shown = false;
  return {
    onProgress(progress: OpenProgressReport) {
      const now = Date.now();
      if (!stream.isTTY || now - started < QUIET_MS || now - drawn < REDRAW_MS) return;
      drawn = now;
      shown = true;
      stream.write(`\r\x1b[K${progressLine(name, bytesTotal, progress)}`);
    },
    done() {
      if (shown) stream.write('\r\x1b[K');
      shown = false;
    },
  };
}

/**
 * The line for a progress report, in the format's words: what its count counts (`counted`),
 * or no count at all when the format says none (a Chrome trace's rows are not samples).
 */
export function progressLine(
  name: string,
  bytesTotal: number,
  progress: OpenProgressReport,
): string {
  const shown = terminalText(name);
  const { counted } = progress;
  if (progress.phase === 'building')
    return counted === undefined
      ? `${shown}: building rows…`
      : `${shown}: building rows of ${progress.samplesRead} ${counted}…`;
  const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;
  const share = bytesTotal > 0 ? ` ${Math.floor((100 * progress.bytesRead) / bytesTotal)}%` : '';
  const count = counted === undefined ? '' : `, ${progress.samplesRead} ${counted} read`;
  return `${shown}: reading${share} (${mb(progress.bytesRead)} of ${mb(bytesTotal)})${count}`;
}
