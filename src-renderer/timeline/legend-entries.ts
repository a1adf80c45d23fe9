import type { FileSummary } from '../../src-main/core/api/trace-api';
import { PD_PHASES, pdPhaseColour } from '../../src-main/core/model/pd-phases';
import type { PdRole } from '../../src-main/core/model/row';
import { colourForName, colourOfItem } from './span-colours';

const MAX_NAMES = 12;

export interface LegendName {
  /** a span name, or a category (a GPU kernel kind) that stands for the names of its spans */
  name: string;
  count: number;
  category?: boolean;
  /** the colour its bars are drawn in (drawTimeline's colourForName) */
  colour: string;
}

export interface LegendPhase {
  role: PdRole;
  phase: string;
  /** the colour its segments are drawn in inside a PD span */
  colour: string;
}

/**
 * What the legend lists, each with the colour the drawing uses for it: the most frequent span
 * names (PD per-phase span names excepted: their phases have entries of their own) and, when
 * the file has PD spans, every PD phase by role.
 */
export function legendEntries(file: { spanNames: SpanNameCount[] }): {
  names: LegendName[];
  phases: LegendPhase[];
} {
  const names = file.spanNames
    .filter((n) => !/^sglang_pd_(prefill|decode)_/.test(n.name))
    .slice(0, MAX_NAMES)
    .map(({ name, count, category }) =>
      category
        ? { name, count, category, colour: colourOfItem({ name, category: name }) }
        : { name, count, colour: nameColour(name) },
    );
  const hasPd = file.spanNames.some((n) => /\[P\]|\[D\]|^sglang_pd_(prefill|decode)$/.test(n.name));
  return { names, phases: hasPd ? PD_PHASES.map((p) => ({ ...p })) : [] };
}

/** A legend's name with its count; a category stands for every span of that category. */
export interface SpanNameCount {
  name: string;
  count: number;
  category?: boolean;
}

/**
 * A file's legend: its bars as its worker counted them (FileSummary.barCounts), as the run tab
 * counts each file: spans only (instant events are markers, not bars in a name's colour), a GPU
 * profile's kernels folded into their kinds, first. Its spanNames counted every item, so a
 * name of instants alone (slime's sglang_pd_summary) took a place among the bars' colours.
 */
export function fileLegendNames(file: Pick<FileSummary, 'barCounts'>): SpanNameCount[] {
  return file.barCounts;
}

/**
 * Several files' bar counts as one legend (a run's files of one role, two compared files): each
 * name's and each category's counts added, categories first, most first within each.
 */
export function summedBarCounts(lists: readonly (readonly SpanNameCount[])[]): SpanNameCount[] {
  const counts = new Map<string, SpanNameCount>();
  for (const list of lists) {
    for (const { name, count, category } of list) {
      const key = `${category ? 'c' : 'n'}:${name}`;
      const was = counts.get(key);
      if (was) was.count += count;
      else counts.set(key, category ? { name, count, category } : { name, count });
    }
  }
  return [...counts.values()].sort(
    (a, b) =>
      Number(!!b.category) - Number(!!a.category) ||
      b.count - a.count ||
      (a.name < b.name ? -1 : 1),
  );
}

/**
 * A PD span is drawn as its phases over a tint of its role's forward colour, never in its name's
 * colour: its swatch is that forward colour.
 */
function nameColour(name: string): string {
  if (/\[P\]$|^sglang_pd_prefill$/.test(name)) return pdPhaseColour('prefill', 'forward');
  if (/\[D\]$|^sglang_pd_decode$/.test(name)) return pdPhaseColour('decode', 'forward');
  return colourForName(name);
}

/** The set of names with `name` added, or taken out when it was in: a legend entry's toggle. */
export function withToggled(names: Set<string>, name: string): Set<string> {
  const next = new Set(names);
  if (next.has(name)) next.delete(name);
  else next.add(name);
  return next;
}
