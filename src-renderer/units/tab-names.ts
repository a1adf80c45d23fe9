/** A tab's own name (a file's, a run's) and where it was opened from, when that is known. */
export interface TabNamed {
  name: string;
  /** its path (a report's: from the run folder's parent); null for an upload */
  path: string | null;
}

/**
 * Each tab's name, told apart from the others as editors do for files of one name: a name two
 * tabs share gets the folders above it, fewest first, until it is the only one
 * (`comm_timeline/slime-trainer-0.jsonl` beside `comm_timeline_v1/slime-trainer-0.jsonl`);
 * a name no other tab has stays as it is. Tabs of one path stay alike: nothing tells them apart.
 */
export function distinctTabNames(tabs: readonly TabNamed[]): string[] {
  // the folders above each tab's name, nearest last
  const folders = tabs.map(({ path }) =>
    path === null
      ? []
      : path
          .split(/[/\\]+/)
          .filter(Boolean)
          .slice(0, -1),
  );
  const shown = tabs.map(() => 0);
  const nameOf = (i: number) =>
    [...folders[i].slice(folders[i].length - shown[i]), tabs[i].name].join('/');
  // each round shows one more folder of every tab whose name is still shared: a name grows
  // only as far as it must, and the rounds end once none can grow (at most the deepest path's)
  for (;;) {
    const byName = new Map<string, number[]>();
    tabs.forEach((_tab, i) => {
      const name = nameOf(i);
      const same = byName.get(name);
      if (same) same.push(i);
      else byName.set(name, [i]);
    });
    let grew = false;
    for (const same of byName.values()) {
      if (same.length < 2) continue;
      for (const i of same) {
        if (shown[i] >= folders[i].length) continue;
        shown[i]++;
        grew = true;
      }
    }
    if (!grew) return tabs.map((_tab, i) => nameOf(i));
  }
}
