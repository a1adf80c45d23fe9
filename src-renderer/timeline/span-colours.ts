/** Stable colours per span name: the same name has the same colour in every file and view. */

/** Names slime always writes get fixed, well-separated colours. */
const FIXED: Record<string, string> = {
  generate_and_rm_group: '#9aa5b1',
  generate_and_rm: '#4e79a7',
  sglang_generate: '#f28e2b',
  sglang_generate_stream: '#f28e2b',
  reward_model: '#59a14f',
  group_reward_model: '#3d8b37',
  tool_call: '#b07aa1',
};

/**
 * The colours other names hash to: eleven hues at least 25 CIE76 units (ΔE) from each other and
 * from the kernel kinds' blue, orange and green (CATEGORY_COLOURS below), so that in a GPU
 * profile an op beside the kernels never reads as communication or compute, and two names never
 * get near twins (Tableau's and d3's palettes together gave two reds, two purples, two browns).
 */
const NAME_PALETTE = [
  '#e15759', // red
  '#76b7b2', // teal
  '#edc948', // yellow
  '#b07aa1', // mauve
  '#ff9da7', // pink
  '#9c755f', // brown
  '#bab0ac', // warm grey
  '#c51b7d', // magenta
  '#5e3c99', // violet
  '#8c2d04', // rust
  '#a6761d', // ochre
];

export function colourForName(name: string): string {
  const fixed = FIXED[name];
  if (fixed) return fixed;
  let hash = 2166136261;
  for (let i = 0; i < name.length; i++) {
    hash ^= name.charCodeAt(i);
    hash = Math.imul(hash, 16777619);
  }
  return NAME_PALETTE[(hash >>> 0) % NAME_PALETTE.length];
}

export const STATUS_COLOURS: Record<string, string> = {
  completed: '#2da44e',
  truncated: '#d4a72c',
  aborted: '#cf222e',
  failed: '#a40e26',
  pending: '#8c959f',
  ok: '#2da44e',
  error: '#cf222e',
};

/**
 * A GPU kernel's kind (an item's category): computation in blue, communication (NCCL and other
 * collectives) in orange, memory (memcpy, memset) in green, as Perfetto and HTA's plots tell
 * them apart at a glance. Another category gets its name's colour.
 */
const CATEGORY_COLOURS: Record<string, string> = {
  computation: '#4e79a7',
  communication: '#f28e2b',
  memory: '#59a14f',
};

/** What an item is listed, hidden and highlighted by: its category when it has one, else its name. */
export const legendKeyOf = (item: { name: string; category?: string }): string =>
  item.category ?? item.name;

/** The colour an item's bar is drawn in: its category's, else its name's. */
export function colourOfItem(item: { name: string; category?: string }): string {
  if (item.category === undefined) return colourForName(item.name);
  return CATEGORY_COLOURS[item.category] ?? colourForName(item.category);
}
