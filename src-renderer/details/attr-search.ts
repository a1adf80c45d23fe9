import { jsonText } from '../../src-main/core/model/json-text';
import type { AttrValue, Attrs } from '../../src-main/core/model/row';
import { describeMarker, formatValueWithUnit } from './format-values';

export interface AttrEntry {
  /** dotted path, e.g. "meta_info.cached_tokens"; list elements as "[3]" */
  key: string;
  value: AttrValue;
  /** display text of the value */
  text: string;
}

/** Nested dicts below this many leaves are spread into dotted keys; bigger ones stay JSON. */
const MAX_SPREAD = 40;

/**
 * Attrs as table entries. Nested dicts become dotted keys so each leaf can be searched and
 * copied on its own; lists and main's value markers stay one entry.
 */
export function flattenAttrs(attrs: Attrs | null | undefined, prefix = ''): AttrEntry[] {
  const out: AttrEntry[] = [];
  for (const key of Object.keys(attrs ?? {})) {
    const value = (attrs as Attrs)[key];
    const path = prefix ? `${prefix}.${key}` : key;
    if (isSpreadable(value)) out.push(...flattenAttrs(value as Attrs, path));
    else out.push({ key: path, value, text: formatValueWithUnit(key, value) });
  }
  return out;
}

function isSpreadable(value: AttrValue): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  if (describeMarker(value) !== null) return false;
  const size = Object.keys(value).length;
  return size > 0 && size <= MAX_SPREAD;
}

/**
 * Entries whose key or value contains every word of the query (case-insensitive). `key=value`
 * words match a key containing `key` whose value contains `value`.
 */
export function searchAttrs(entries: AttrEntry[], query: string): AttrEntry[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return entries;
  return entries.filter((entry) => {
    const key = entry.key.toLowerCase();
    const text = entry.text.toLowerCase();
    return words.every((word) => {
      const eq = word.indexOf('=');
      if (eq > 0) return key.includes(word.slice(0, eq)) && text.includes(word.slice(eq + 1));
      return key.includes(word) || text.includes(word);
    });
  });
}

/** The text a "copy value" button puts on the clipboard: strings raw, the rest as JSON. */
export function copyText(value: AttrValue): string {
  if (typeof value === 'string') return value;
  return jsonText(value, 2);
}
