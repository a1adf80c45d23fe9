import { statSync } from 'node:fs';
import { holdsTrainerTimeline } from '../core/formats/registry';
import { rotatedSetGroups } from './rotated-set-groups';
import { sniffPath } from './sniff-path';
import { FolderWalk } from './folder-walk';

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
  const sniff = (path: string) => {
    const format = sniffPath(path);
    if (typeof format === 'string') formats.set(path, format);
    else skipped.push({ path, reason: format.reason });
  };
  for (const path of paths) {
    let isDir: boolean;
    try {
      isDir = statSync(path).isDirectory();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'error';
      skipped.push({ path, reason: `cannot be read (${code})` });
      continue;
    }
    if (!isDir) {
      if (!formats.has(path)) sniff(path);
      continue;
    }
    // links followed once (a loop lists each file once), never out of the named folder;
    // depth first in name order, as the files' paths sort (recursion bounded by MAX_DEPTH)
    const walk = new FolderWalk(path);
    const visit = (dir: string, depth: number) => {
      for (const entry of walk.entries(dir, depth)) {
        if (entry.kind === 'skipped') skipped.push({ path: entry.path, reason: entry.reason });
        else if (entry.kind === 'file') sniff(entry.path);
        else if (entry.depth > MAX_DEPTH)
          skipped.push({ path: entry.path, reason: 'a folder too deep inside the run' });
        else visit(entry.path, entry.depth);
      }
    };
    visit(path, 0);
  }
  const groups = rotatedSetGroups(formats);
  const kinds = new Set(formats.values());
  const isRun = kinds.size >= 2 || [...kinds].some((format) => holdsTrainerTimeline(format));
  return { groups, skipped, isRun };
}
