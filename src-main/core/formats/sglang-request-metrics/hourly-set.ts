import { basename, dirname, join } from 'node:path';
import { isFolder, listFolder } from '../../bytes/folder-listing';

/** FileRequestMetricsExporter's file name: one file per hour, `%Y%m%d_%H` of the finish time. */
const HOURLY = /^sglang-request-metrics-(\d{8}_\d{2})\.log$/;

/**
 * The hourly files a request-metrics file belongs to (a folder: the ones it holds), oldest
 * first: the name's hour sorts as text. A file of another name is a set of its own.
 */
export function findHourlySet(path: string): string[] {
  const isDir = isFolder(path);
  if (isDir === null) return [path];
  const dir = isDir ? path : dirname(path);
  if (!isDir && !HOURLY.test(basename(path))) return [path];
  const set = listFolder(dir)
    .filter((name) => HOURLY.test(name))
    .sort()
    .map((name) => join(dir, name));
  return isDir || set.includes(path) ? set : [path];
}
