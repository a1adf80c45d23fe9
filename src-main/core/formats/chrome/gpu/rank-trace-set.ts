import { basename, dirname, join } from 'node:path';
import { isFolder, listFolder } from '../../../bytes/folder-listing';

const TRACE_NAME = /\.json(?:\.gz)?$/;

/**
 * The rank traces opened together with `path`: the JSON (or gzipped JSON) files of its folder,
 * or of the folder itself, in name order. Opening keeps those that sniff as GPU profiles, so
 * a README or HTA's expected figures beside the traces are left out by content.
 */
export function rankTraceSet(path: string): string[] {
  const isDir = isFolder(path);
  if (isDir === null) return [path];
  const dir = isDir ? path : dirname(path);
  let names: readonly string[];
  try {
    names = listFolder(dir);
  } catch {
    return isDir ? [] : [path];
  }
  const set = names
    .filter((n) => TRACE_NAME.test(n))
    .sort()
    .map((n) => join(dir, n));
  if (isDir) return set;
  return set.includes(join(dir, basename(path))) ? set : [path];
}
