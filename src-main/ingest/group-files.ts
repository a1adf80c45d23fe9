import { statSync } from 'node:fs';
import { findRotatedSet } from '../core/formats/otlp/rotated-set';

/**
 * Command-line paths as the groups to open: a folder opens its rotated OTLP set; a file opens
 * alone (the UI offers its rotated siblings). One group is one file tab.
 */
export function groupRotatedSets(paths: string[]): string[][] {
  return paths.map((path) => {
    try {
      if (statSync(path).isDirectory()) {
        const set = findRotatedSet(path);
        return set.length > 0 ? set : [path];
      }
    } catch {
      // a missing path is reported by the open itself, with its name
    }
    return [path];
  });
}
