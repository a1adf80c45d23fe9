/**
 * Byte sizes as the app shows them, everywhere: decimal units (1 MB = 1,000,000 bytes), as the
 * README's figures, disks and `ls --si` count them. One module so that a file never reads as
 * two sizes in two places (it did: 57.3 "MB" of 1024² in the top bar, 60 MB in the run's strip).
 */

const UNITS = ['B', 'kB', 'MB', 'GB', 'TB'] as const;
const STEP = 1000;

/** The unit `bytes` reads in: the largest whose value is at least 1 once rounded to 0.1. */
function unitIndex(bytes: number): number {
  let unit = 0;
  // 999.96 kB would read "1000.0 kB": it is 1.0 MB
  while (unit < UNITS.length - 1 && bytes >= STEP ** (unit + 1) - 0.05 * STEP ** unit) unit++;
  return unit;
}

function inUnit(bytes: number, unit: number): string {
  return unit === 0 ? String(Math.round(bytes)) : (bytes / STEP ** unit).toFixed(1);
}

/** `512 B`, `171.7 kB`, `57.3 MB`, `3.2 GB`; '—' for what is not a size. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '—';
  const unit = unitIndex(bytes);
  return `${inUnit(bytes, unit)} ${UNITS[unit]}`;
}

/**
 * Bytes done of a total, both in the total's unit so they read side by side: `45.0 / 136.0 MB`,
 * `0.0 / 28.3 kB`; the bytes done alone while the total is not known (0): `45.0 MB`.
 */
export function formatBytesOf(done: number, total: number): string {
  if (!(total > 0)) return formatBytes(done);
  const unit = unitIndex(total);
  return `${inUnit(Math.max(0, done), unit)} / ${inUnit(total, unit)} ${UNITS[unit]}`;
}

/** A read's speed in whole MB per second: `85 MB/s`. */
export function formatMegabytesPerSecond(bytes: number, sec: number): string {
  if (!(sec > 0) || !Number.isFinite(bytes)) return '— MB/s';
  return `${(bytes / STEP ** 2 / sec).toFixed(0)} MB/s`;
}

/** bytes read, and the format's count in its own words ("· 1200 spans"); no count unnamed */
export function formatProgress(
  bytesRead: number,
  bytesTotal: number,
  count: number,
  counted: string | undefined,
): string {
  const shown = counted !== undefined && count > 0 ? ` · ${count} ${counted}` : '';
  return `${formatBytesOf(bytesRead, bytesTotal)}${shown}`;
}
