import { jsonText } from '../../src-main/core/model/json-text';
import type { AttrValue, Attrs } from '../../src-main/core/model/row';

/** Sample fields that hold one number per token: counted at once, their values loaded on request. */
export const TOKEN_FIELDS = [
  'tokens',
  'loss_mask',
  'rollout_log_probs',
  'teacher_log_probs',
] as const;

export interface TokenCount {
  field: string;
  length: number;
  /** true when main kept only the length: values come from getLazyValues */
  lazy: boolean;
}

/** The length of a token-sized field, whether main sent a $lazy marker, a tensor or a list. */
export function lengthOf(value: AttrValue | undefined): number | null {
  if (Array.isArray(value)) return value.length;
  if (value && typeof value === 'object') {
    if (typeof value.length === 'number') return value.length;
    if (value.$tensor === true && Array.isArray(value.shape) && value.shape.length === 1)
      return Number(value.shape[0]);
  }
  return null;
}

/** Token counts of a sample: response_length first, then each per-token list's length. */
export function tokenCounts(fields: Attrs): {
  responseLength: number | null;
  counts: TokenCount[];
} {
  const responseLength = typeof fields.response_length === 'number' ? fields.response_length : null;
  const counts: TokenCount[] = [];
  for (const field of TOKEN_FIELDS) {
    const value = fields[field];
    const length = lengthOf(value);
    if (length === null) continue;
    const lazy =
      !!value && typeof value === 'object' && !Array.isArray(value) && value.$lazy === true;
    counts.push({ field, length, lazy });
  }
  return { responseLength, counts };
}

export interface TensorField {
  /** its name: the keys down to it joined by dots (multimodal_train_inputs.pixel_values) */
  field: string;
  /** the keys down to it: one for a field of the sample, more for one nested in its dicts */
  path: string[];
  /** its element count */
  length: number;
  /** a tensor's shape, null for a list of numbers kept as a byte range */
  shape: number[] | null;
  dtype: string;
}

/** How deep into a sample's dicts tensors are looked for, and how many are listed at most. */
const TENSOR_DEPTH = 4;
const MAX_TENSORS = 64;

/**
 * The sample's fields whose numbers stay in the file until asked for, those in `skip` left
 * out: tensors (slime's rollout_routed_experts, rollout_top_p_token_ids, the tensors of
 * multimodal_train_inputs by name, ...) and long lists kept as byte ranges.
 */
export function tensorFields(
  fields: Attrs,
  skip: ReadonlySet<string> = new Set(TOKEN_FIELDS),
): TensorField[] {
  const out: TensorField[] = [];
  const visit = (value: AttrValue | undefined, path: string[]) => {
    if (out.length >= MAX_TENSORS || !value || typeof value !== 'object' || Array.isArray(value))
      return;
    const field = path.join('.');
    if (value.$tensor === true && Array.isArray(value.shape)) {
      const shape = value.shape.map(Number);
      const length = shape.reduce((n, d) => n * d, 1);
      out.push({ field, path, length, shape, dtype: String(value.dtype ?? '?') });
    } else if (value.$lazy === true && typeof value.length === 'number') {
      const dtype = String(value.elemType ?? '?');
      out.push({ field, path, length: value.length, shape: null, dtype });
    } else if (path.length < TENSOR_DEPTH && !Object.keys(value).some((k) => k.startsWith('$')))
      // a dict of the sample's (not a marker main sent for another kind of value)
      for (const [key, inner] of Object.entries(value)) visit(inner, [...path, key]);
  };
  for (const [key, value] of Object.entries(fields)) if (!skip.has(key)) visit(value, [key]);
  return out;
}

/** `fields` without the values at `paths` (dicts along them copied; one left empty dropped). */
export function withoutPaths(fields: Attrs, paths: readonly string[][]): Attrs {
  const out: Attrs = { ...fields };
  for (const path of paths) {
    const dicts: Attrs[] = [out];
    let ok = true;
    for (let k = 0; k < path.length - 1 && ok; k++) {
      const inner = dicts[k][path[k]];
      if (!inner || typeof inner !== 'object' || Array.isArray(inner)) ok = false;
      else dicts.push((dicts[k][path[k]] = { ...(inner as Attrs) }));
    }
    if (!ok) continue;
    delete dicts[path.length - 1][path[path.length - 1]];
    // a dict that held only tensors is gone too
    for (let k = path.length - 1; k > 0 && Object.keys(dicts[k]).length === 0; k--)
      delete dicts[k - 1][path[k - 1]];
  }
  return out;
}

/** Runs of equal values: a loss mask of 2,000 numbers reads as "0 ×512, 1 ×1488". */
export function runLengths(values: number[]): { value: number; count: number }[] {
  const runs: { value: number; count: number }[] = [];
  for (const v of values) {
    const last = runs[runs.length - 1];
    if (last && last.value === v) last.count++;
    else runs.push({ value: v, count: 1 });
  }
  return runs;
}

export interface ValueStats {
  count: number;
  min: number;
  max: number;
  mean: number;
  /** tokens whose value is not finite (-inf log probs) */
  nonFinite: number;
}

export function valueStats(values: number[]): ValueStats | null {
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  let n = 0;
  for (const v of values) {
    if (!Number.isFinite(v)) continue;
    if (v < min) min = v;
    if (v > max) max = v;
    sum += v;
    n++;
  }
  if (n === 0) return null;
  return { count: n, min, max, mean: sum / n, nonFinite: values.length - n };
}

/**
 * Loaded values as one compact line: a mask as runs, log probs with their stats, ids as the
 * first `limit` numbers.
 */
export function summariseValues(field: string, values: number[], limit = 64): string {
  if (values.length === 0) return '[]';
  const isMask = field === 'loss_mask' || values.every((v) => v === 0 || v === 1);
  if (isMask) {
    const runs = runLengths(values);
    const shown = runs.slice(0, 12).map((r) => `${r.value}×${r.count}`);
    return runs.length > 12 ? `${shown.join(' ')} … (${runs.length} runs)` : shown.join(' ');
  }
  const integers = values.every((v) => Number.isInteger(v));
  const head = values.slice(0, limit).map((v) => (integers ? String(v) : v.toFixed(3)));
  const more = values.length > limit ? ` … +${values.length - limit}` : '';
  if (integers) return `${head.join(' ')}${more}`;
  const stats = valueStats(values);
  const summary = stats
    ? `mean ${stats.mean.toFixed(3)}, min ${stats.min.toFixed(3)}, max ${stats.max.toFixed(3)}` +
      (stats.nonFinite > 0 ? `, ${stats.nonFinite} not finite` : '')
    : 'no finite values';
  return `${summary} · ${head.join(' ')}${more}`;
}

/** A reward as shown: a number, or a dict of named numbers (several reward models). */
export function rewardEntries(
  reward: AttrValue | undefined,
): { key: string; value: string }[] | null {
  if (reward === null || reward === undefined) return null;
  if (typeof reward === 'object' && !Array.isArray(reward)) {
    return Object.keys(reward).map((key) => ({
      key,
      value: typeof reward[key] === 'number' ? String(reward[key]) : jsonText(reward[key]),
    }));
  }
  return [{ key: '', value: typeof reward === 'string' ? reward : jsonText(reward) }];
}
