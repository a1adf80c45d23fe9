import { siblingFiles } from '../core/formats/registry';

/**
 * Files found by content (path -> format id), grouped as they open: a rotated set as one group,
 * limited to its members of the same format that were found; every other file alone.
 */
export function rotatedSetGroups(formats: Map<string, string>): string[][] {
  const groups: string[][] = [];
  const taken = new Set<string>();
  for (const [path, format] of formats) {
    if (taken.has(path)) continue;
    const set = siblingFiles(format, path).filter(
      (p) => formats.get(p) === format && !taken.has(p),
    );
    const group = set.includes(path) ? set : [path];
    for (const member of group) taken.add(member);
    groups.push(group);
  }
  return groups;
}
