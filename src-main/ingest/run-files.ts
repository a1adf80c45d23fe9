import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { holdsTrainerTimeline } from '../core/formats/registry';
import { rotatedSetGroups } from './rotated-set-groups';
import { sniffPath } from './sniff-path';

/** The files of a run, found by content in the named folders (and their subfolders) and files. */
export interface RunFiles {
  /** one group of files per trace (a rotated set is one), in path order */
  groups: string[][];
  /** files that are not traces, with the reason */
  skipped: { path: string; reason: string }[];
  /**
   * whether these paths are a run: they hold a trainer timeline, or traces of several
   * formats (dumps and SGLang's file). A folder of rollout dumps alone is a run's trends.
   */
  isRun: boolean;
}

/** How deep a run folder is searched: `run/comm_timeline/slime-trainer-0.jsonl` is one level. */
const MAX_DEPTH = 3;

export function findRunFiles(paths: string[]): RunFiles {
  const formats = new Map<string, string>();
  const skipped: RunFiles['skipped'] = [];
  const visit = (path: string, depth: number) => {
    let isDir: boolean;
    try {
      isDir = statSync(path).isDirectory();
    } catch (error) {
      skipped.push({
        path,
        reason: `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      });
      return;
    }
    if (isDir) {
      if (depth > MAX_DEPTH) {
        skipped.push({ path, reason: 'a folder too deep inside the run' });
        return;
      }
      const names = readdirSync(path).sort();
      for (const name of names) visit(join(path, name), depth + 1);
      return;
    }
    const format = sniffPath(path);
    if (typeof format === 'string') formats.set(path, format);
    else skipped.push({ path, reason: format.reason });
  };
  for (const path of paths) visit(path, 0);
  const groups = rotatedSetGroups(formats);
  const kinds = new Set(formats.values());
  const isRun = kinds.size >= 2 || [...kinds].some((format) => holdsTrainerTimeline(format));
  return { groups, skipped, isRun };
}
