import type { FormatCapabilities } from '../../src-main/core/model/file-format';

/**
 * What the empty details panel says it will show: only what the file has (a trace file has no
 * prompt, response or reward; a file without PD lanes no PD phases), and never content a shared
 * report was made without (`contentLeftOut`): it says that content was left out instead.
 */
export function detailsHint(capabilities: FormatCapabilities, contentLeftOut = false): string {
  const parts = ['times', 'attributes'];
  if (capabilities.facets.pd) parts.push('PD phases');
  let sample = '';
  if (capabilities.samples) {
    const fields = contentLeftOut ? ['timing'] : ['timing', 'prompt', 'response'];
    if (capabilities.facets.rewards) fields.push('reward');
    sample = `, and the sample’s ${listText(fields)}`;
  } else {
    parts.push('events', 'links');
  }
  const leftOut = contentLeftOut
    ? ` Prompts, responses, labels and tool arguments were left out of this report.`
    : '';
  return `Click a span, an event or a row label to see its details: ${listText(parts)}${sample}. Escape closes them.${leftOut}`;
}

/** "a, b and c" */
function listText(items: string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}
