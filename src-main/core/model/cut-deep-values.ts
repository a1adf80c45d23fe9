/**
 * Values nested deeper than this (objects and arrays in a Chrome event's args, in a trainer
 * record's fields) are replaced by a note: the rows, details, search and exports walk values
 * by recursion (JSON.stringify among them), and a 5,000-deep value in a 10 KB file overflowed
 * the stack with no code. OpenTelemetry attributes are cut at the same depth.
 */
export const MAX_VALUE_DEPTH = 32;
export const TOO_DEEP_NOTE = `[nested deeper than ${MAX_VALUE_DEPTH} levels]`;

type Container = Record<string, unknown> | unknown[];

const isContainer = (v: unknown): v is Container => typeof v === 'object' && v !== null;

/**
 * Replaces, in place, every object or array of `root` (a JSON.parse result: plain data) that
 * lies MAX_VALUE_DEPTH levels down by TOO_DEEP_NOTE, walking with a stack of its own (no
 * recursion). Returns how many were replaced. A flat object (the usual args) costs one pass
 * over its values.
 */
export function cutDeepValues(root: Container): number {
  if (!reachesCutDepth(root, 1)) return 0;
  let cut = 0;
  const stack: [Container, number][] = [[root, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const value: unknown = node[i];
        if (!isContainer(value)) continue;
        if (depth >= MAX_VALUE_DEPTH) {
          node[i] = TOO_DEEP_NOTE;
          cut++;
        } else stack.push([value, depth + 1]);
      }
      continue;
    }
    for (const key of Object.keys(node)) {
      const value = node[key];
      if (!isContainer(value)) continue;
      if (depth >= MAX_VALUE_DEPTH) {
        // a key "__proto__" (JSON.parse makes it an own property) is set as one, not as the prototype
        Object.defineProperty(node, key, {
          value: TOO_DEEP_NOTE,
          enumerable: true,
          writable: true,
          configurable: true,
        });
        cut++;
      } else stack.push([value, depth + 1]);
    }
  }
  return cut;
}

/**
 * Whether a container lies in `node` (itself `depth` levels down) where the walk above would
 * cut it: a recursion no deeper than MAX_VALUE_DEPTH, allocating nothing. Kineto's args hold
 * arrays (shapes, grid, block) in every event, and walking each with a stack of pairs was a
 * twentieth of a GPU rank's open; only values that are really too deep are walked now.
 */
function reachesCutDepth(node: Container, depth: number): boolean {
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) {
      const value: unknown = node[i];
      if (isContainer(value) && (depth >= MAX_VALUE_DEPTH || reachesCutDepth(value, depth + 1)))
        return true;
    }
    return false;
  }
  for (const key in node) {
    const value = node[key];
    if (isContainer(value) && (depth >= MAX_VALUE_DEPTH || reachesCutDepth(value, depth + 1)))
      return true;
  }
  return false;
}
