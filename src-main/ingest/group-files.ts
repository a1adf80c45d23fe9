import { statSync } from 'node:fs';
import { basename } from 'node:path';
import { copiedFile, holdsRolloutSamples, siblingFiles } from '../core/formats/registry';
import { findRunFiles } from './run-files';
import { sniffPath } from './sniff-path';
import { rotatedSetGroups } from './rotated-set-groups';
import { FolderWalk } from './folder-walk';

/** What a list of named paths opens as: one group of files per trace (one file tab each). */
export interface PathGroups {
  /** a file alone, or the files of one rotated set (oldest first) */
  groups: string[][];
  /** files inside a named folder that are not traces, with the reason */
  skipped: { path: string; reason: string }[];
  /** named folders that hold no trace */
  emptyFolders: string[];
  /** with `trendFolders`: named folders of two or more rollout dumps (their dumps not in groups) */
  trendFolders: string[];
  /**
   * with `runs`: the named paths that are a run (ingest/run-files.ts), each opened as one run
   * tab: a folder that is a run, or the named files together when they are one
   */
  runs: string[][];
}

/**
 * The most traces one named folder opens as tabs in the app (desktop, serve mode): each holds
 * its store while open (about 150 KB for a one-span file), and a tab bar of more is no use.
 * The command line reads a folder one file at a time and is not bound by it.
 */
export const MAX_FOLDER_TABS = 1000;

/**
 * Named paths as the groups to open. A named file opens alone (the UI offers its rotated
 * siblings). A named folder opens every trace it holds, found by content, not by name: each
 * dump alone, each rotated set once; what is not a trace is listed with the reason. Files are
 * read one at a time, so a folder of thousands of files keeps one file open.
 */
export function groupPaths(
  paths: string[],
  options: { trendFolders?: boolean; runs?: boolean; maxTraces?: number } = {},
): PathGroups {
  const result: PathGroups = {
    groups: [],
    skipped: [],
    emptyFolders: [],
    trendFolders: [],
    runs: [],
  };
  // several named files that together are a run (dumps + SGLang's file, timelines) open as one
  const files = paths.filter((path) => !isDirectory(path));
  const filesAreRun = options.runs === true && files.length >= 2 && findRunFiles(files).isRun;
  if (filesAreRun) result.runs.push(files);
  for (const path of paths) {
    if (filesAreRun && files.includes(path)) continue;
    if (!isDirectory(path)) {
      result.groups.push([path]);
      continue;
    }
    // a folder holding a trainer timeline or several kinds of trace is one run
    if (options.runs && findRunFiles([path]).isRun) {
      result.runs.push([path]);
      continue;
    }
    const before = result.groups.length;
    const inFolder = folderTraces(path);
    // a folder of a run's rollout dumps opens as their trends, one point per dump
    const dumps = inFolder.groups.filter((group) => inFolder.rollouts.has(group[0]));
    if (options.trendFolders && dumps.length >= 2) {
      result.trendFolders.push(path);
      inFolder.groups = inFolder.groups.filter((group) => !inFolder.rollouts.has(group[0]));
    }
    const max = options.maxTraces ?? Infinity;
    if (inFolder.groups.length > max) {
      const count = (n: number) => n.toLocaleString('en-US');
      result.skipped.push({
        path,
        reason: `holds ${count(inFolder.groups.length)} traces: the first ${count(max)} by name open, the rest not (name a smaller folder, or read it with the command line's summary or sql) [io/too-many-files]`,
      });
      inFolder.groups = inFolder.groups.slice(0, max);
    }
    result.groups.push(...inFolder.groups);
    result.skipped.push(...inFolder.skipped);
    if (result.groups.length === before && !result.trendFolders.includes(path)) {
      result.emptyFolders.push(path);
    }
  }
  return result;
}

function folderTraces(
  dir: string,
): Pick<PathGroups, 'groups' | 'skipped'> & { rollouts: Set<string> } {
  const groups: string[][] = [];
  const skipped: PathGroups['skipped'] = [];
  // path -> the id of its format
  const formats = new Map<string, string>();
  // links followed once and only inside the folder; at most MAX_FOLDER_FILES files
  for (const entry of new FolderWalk(dir).entries(dir, 0)) {
    const { path } = entry;
    if (entry.kind === 'folder') {
      skipped.push({ path, reason: 'a folder (folders inside a folder are not opened)' });
    } else if (entry.kind === 'skipped') {
      skipped.push({ path, reason: entry.reason });
    } else {
      const format = sniffPath(path);
      if (typeof format === 'string') formats.set(path, format);
      else skipped.push({ path, reason: format.reason });
    }
  }
  // a copy whose original is here too (an hour both plain and gzipped) is read once, as the original
  for (const [path, format] of formats) {
    const original = copiedFile(format, path);
    if (original === null || formats.get(original) !== format) continue;
    formats.delete(path);
    skipped.push({ path, reason: `a copy of ${basename(original)}, which is read` });
  }
  groups.push(...rotatedSetGroups(formats));
  const rollouts = new Set([...formats].filter(([, f]) => holdsRolloutSamples(f)).map(([p]) => p));
  return { groups, skipped, rollouts };
}

/** A named file and the files of its rotated set (what the UI offers to open with it). */
export function withRotatedSiblings(path: string): string[] {
  if (isDirectory(path)) return [path];
  const format = sniffPath(path);
  return typeof format === 'string' ? [path, ...siblingFiles(format, path)] : [path];
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false; // a missing path is reported by the open itself, with its name
  }
}
