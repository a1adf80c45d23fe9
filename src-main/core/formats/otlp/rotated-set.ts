import { basename, dirname, join } from 'node:path';
import { isFolder, listFolder } from '../../bytes/folder-listing';

const ROLL_ROTATED = /^(.*?)(?:\.(\d+))?\.jsonl$/;
const COLLECTOR_BACKUP = /^(.*?)-(\d{4}-\d{2}-\d{2}T[\d.-]+)(\.json)$/;

/**
 * The files of a rotated set, oldest first. ROLL: `traces.jsonl` is the oldest, then
 * `traces.1.jsonl`, `traces.2.jsonl`, ... newer. The collector: `otel_trace-<timestamp>.json`
 * backups by timestamp, then the current file. A folder: the set it holds.
 */
export function findRotatedSet(path: string): string[] {
  const isDir = isFolder(path);
  if (isDir === null) return [path];
  if (isDir) {
    const names = listFolder(path).filter(
      (n) => n.endsWith('.jsonl') || /^otel_trace.*\.json$/.test(n),
    );
    // the folder's rotated set: ROLL's traces*, else the stem with the most files
    const sets = [...new Set(names.map((n) => stemOf(n)))]
      .sort()
      .map((stem) => siblings(path, stem, names));
    const traces = sets.find((set) => set.length > 0 && stemOf(basename(set[0])) === 'traces');
    return traces ?? sets.sort((a, b) => b.length - a.length)[0] ?? [];
  }
  const name = basename(path);
  const dir = dirname(path);
  const names = listFolder(dir);
  const set = siblings(dir, stemOf(name), names);
  return set.length > 0 && set.includes(path) ? set : [path];
}

function stemOf(name: string): string {
  const collector = COLLECTOR_BACKUP.exec(name);
  if (collector) return collector[1];
  const roll = ROLL_ROTATED.exec(name);
  if (roll) return roll[1];
  return name.replace(/\.json$/, '');
}

/** A listing's names by their stem, made once per listing (listFolder keeps the last one). */
const byStemOf = new WeakMap<readonly string[], Map<string, string[]>>();

function namesOfStem(names: readonly string[], stem: string): string[] {
  let byStem = byStemOf.get(names);
  if (!byStem) {
    byStem = new Map();
    for (const name of names) {
      const key = stemOf(name);
      const list = byStem.get(key);
      if (list) list.push(name);
      else byStem.set(key, [name]);
    }
    byStemOf.set(names, byStem);
  }
  return byStem.get(stem) ?? [];
}

function siblings(dir: string, stem: string, listing: readonly string[]): string[] {
  // only the names of this stem: the set of one file of a 20,000-file folder in a lookup
  const names = namesOfStem(listing, stem);
  const rollFiles = names
    .map((n) => ({ n, m: ROLL_ROTATED.exec(n) }))
    .filter(({ m }) => m && m[1] === stem)
    .sort((a, b) => Number(a.m![2] ?? 0) - Number(b.m![2] ?? 0))
    .map(({ n }) => join(dir, n));
  if (rollFiles.length > 0) return rollFiles;
  const backups = names
    .map((n) => ({ n, m: COLLECTOR_BACKUP.exec(n) }))
    .filter(({ m }) => m && m[1] === stem)
    .sort((a, b) => (a.m![2] < b.m![2] ? -1 : 1))
    .map(({ n }) => join(dir, n));
  const current = names.includes(`${stem}.json`) ? [join(dir, `${stem}.json`)] : [];
  return [...backups, ...current];
}
