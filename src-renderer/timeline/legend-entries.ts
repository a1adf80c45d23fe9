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
 * A file's span names for its legend, a GPU profile's kernels folded into their kinds (first,
 * most first): kernels are drawn in their kind's colour, and a profile has thousands of names.
 */
export function fileLegendNames(
  file: Pick<FileSummary, 'spanNames' | 'gpuProfile'>,
): SpanNameCount[] {
  const kernels = file.gpuProfile?.kernels;
  if (!kernels || kernels.length === 0) return file.spanNames;
  // the kind of each kernel name; the counts are the file's (every bar drawn), not the
  // figures' (which leave the last profiler step out)
  const kindOf = new Map(kernels.map((k) => [k.name, k.kind]));
  const kinds = new Map<string, number>();
  const others: SpanNameCount[] = [];
  for (const n of file.spanNames) {
    const kind = kindOf.get(n.name);
    if (kind === undefined) others.push(n);
    else kinds.set(kind, (kinds.get(kind) ?? 0) + n.count);
  }
  return [
    ...[...kinds]
      .sort((a, b) => b[1] - a[1])
      .map(([name, count]) => ({ name, count, category: true })),
    ...others,
  ];
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
