import { basename, dirname, join } from 'node:path';
import { isFolder, listFolder } from '../../bytes/folder-listing';

/**
 * FileRequestMetricsExporter's file name: one file per hour, `%Y%m%d_%H` of the finish time;
 * an hour a log rotator compressed since ends in `.gz` and belongs to the same set.
 */
const HOURLY = /^sglang-request-metrics-(\d{8}_\d{2})\.log(\.gz)?$/;

/**
 * The hourly files a request-metrics file belongs to (a folder: the ones it holds), oldest
 * first: the name's hour sorts as text, plain or gzipped alike. An hour found both plain and
 * gzipped is read once, from its plain file (the .gz is a copy being made, or left behind).
 * A file of another name is a set of its own.
 */
export function findHourlySet(path: string): string[] {
  const isDir = isFolder(path);
  if (isDir === null) return [path];
  const dir = isDir ? path : dirname(path);
  if (!isDir && !HOURLY.test(basename(path))) return [path];
  const byHour = new Map<string, string>();
  for (const name of listFolder(dir)) {
    const match = HOURLY.exec(name);
    if (match === null) continue;
    const [, hour, gz] = match;
    if (gz === undefined || !byHour.has(hour)) byHour.set(hour, name);
  }
  const set = [...byHour.keys()].sort().map((hour) => join(dir, byHour.get(hour)!));
  return isDir || set.includes(path) ? set : [path];
}

/** A gzipped hour's plain twin beside it (the hour is read from there), or null. */
export function plainHourOf(path: string): string | null {
  const name = basename(path);
  if (!HOURLY.test(name) || !name.endsWith('.gz')) return null;
  const plain = join(dirname(path), name.slice(0, -'.gz'.length));
  return isFolder(plain) === false ? plain : null;
}
