/**
 * One frozen copy of each array or object value met in events' args (a Kineto op's input shapes
 * and types, a kernel's grid and block): the same few repeat in every event, and each copy
 * JSON.parse made was kept to the end. Values are found again by a hash of their content and a
 * comparison, not by their JSON text: a JSON.stringify of every value, and the hashing of its new
 * string by the map, were 6% of a GPU rank's open (three times this, measured on Kineto args).
 * Two values are one when their JSON texts would be: the same keys in the same order, equal
 * primitives (0 and -0 alike, as JSON writes both "0").
 */
export class SharedValues {
  /** per content hash, the values kept with it (nearly always one) */
  private readonly byHash = new Map<number, unknown[]>();
  private count = 0;
  private budget = 0;

  /**
   * @param maxCost a value costs a unit per array element, key and primitive and one per char of
   * its strings: past this it is kept as read (long values rarely repeat)
   * @param maxValues past this many distinct values (a trace whose every value is its own), each
   * is kept as read
   */
  constructor(
    private readonly maxCost: number,
    private readonly maxValues: number,
  ) {}

  /** The shared copy of `value` (an array or object), or `value` itself, kept from now on. */
  share(value: object): unknown {
    this.budget = this.maxCost;
    const hash = this.hash(value, 0);
    if (this.budget < 0) return value;
    const bucket = this.byHash.get(hash);
    if (bucket !== undefined) {
      for (let k = 0; k < bucket.length; k++) if (same(bucket[k], value)) return bucket[k];
    }
    if (this.count >= this.maxValues) return value;
    this.count++;
    deepFreeze(value);
    if (bucket !== undefined) bucket.push(value);
    else this.byHash.set(hash, [value]);
    return value;
  }

  /** a 32-bit hash of `value`'s content, spending the budget (negative: too large) */
  private hash(value: unknown, seed: number): number {
    if (--this.budget < 0) return 0;
    switch (typeof value) {
      case 'number':
        // -0 and 0 alike; a fraction's digits folded in (only a hash: `same` decides)
        return (
          Math.imul(seed ^ (Number.isInteger(value) ? value | 0 : (value * 1e6) | 0), 0x9e3779b1) ^
          1
        );
      case 'string':
        return this.hashText(value, seed) ^ 2;
      case 'boolean':
        return Math.imul(seed ^ (value ? 3 : 4), 0x85ebca6b);
      case 'object': {
        if (value === null) return Math.imul(seed ^ 5, 0x85ebca6b);
        if (Array.isArray(value)) {
          let h = Math.imul(seed ^ value.length, 0x27d4eb2f) ^ 6;
          for (let i = 0; i < value.length; i++) h = this.hash(value[i], h);
          return h;
        }
        let h = Math.imul(seed, 0x27d4eb2f) ^ 7;
        for (const key in value) {
          if (!Object.hasOwn(value, key)) continue;
          h = this.hashText(key, h);
          h = this.hash((value as Record<string, unknown>)[key], h);
        }
        return h;
      }
      default:
        return seed ^ 8;
    }
  }

  private hashText(text: string, seed: number): number {
    this.budget -= text.length;
    let h = seed ^ text.length;
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
    return h;
  }
}

/** Whether `a` and `b` have the same JSON text (JSON.parse's values: no cycles, no undefined). */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!same(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ak = Object.keys(a);
  const bk = Object.keys(b);
  if (ak.length !== bk.length) return false;
  for (let k = 0; k < ak.length; k++) {
    if (ak[k] !== bk[k]) return false;
    const key = ak[k];
    if (!same((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]))
      return false;
  }
  return true;
}

/** `value` and everything in it frozen (a shared value must not change under another). */
function deepFreeze(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  for (const inner of Object.values(value)) deepFreeze(inner);
  Object.freeze(value);
}
