import type { FileSummary } from '../../src-main/core/api/trace-api';
import { PD_PHASES, pdPhaseColour } from '../../src-main/core/model/pd-phases';
import type { PdRole } from '../../src-main/core/model/row';
import { colourForName } from './span-colours';

const MAX_NAMES = 12;

export interface LegendName {
  name: string;
  count: number;
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
export function legendEntries(file: Pick<FileSummary, 'spanNames'>): {
  names: LegendName[];
  phases: LegendPhase[];
} {
  const names = file.spanNames
    .filter((n) => !/^sglang_pd_(prefill|decode)_/.test(n.name))
    .slice(0, MAX_NAMES)
    .map(({ name, count }) => ({ name, count, colour: nameColour(name) }));
  const hasPd = file.spanNames.some((n) => /\[P\]|\[D\]|^sglang_pd_(prefill|decode)$/.test(n.name));
  return { names, phases: hasPd ? PD_PHASES.map((p) => ({ ...p })) : [] };
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
