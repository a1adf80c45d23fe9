import type { AttrValue } from '../model/row';
import type { TraceStore } from './build-store';

const cache = new WeakMap<TraceStore, string[]>();

/**
 * Per row, one lowercase string of everything a search box matches: sample index, source,
 * status, label, trace id, span names and attribute values. Built on the first text query.
 */
export function rowSearchText(store: TraceStore): string[] {
  let texts = cache.get(store);
  if (texts) return texts;
  texts = store.rows.map((row) => {
    const parts: string[] = [
      `#${String(row.sample_index)}`,
      String(row.sample_index),
      row.source ?? '',
      row.status ?? '',
      flat(row.label),
      row.trace_id ?? '',
    ];
    const names = new Set<string>();
    for (const item of row.items) {
      names.add(item.name);
      if (item.type === 'span') {
        parts.push(flat(item.attrs.start_attrs), flat(item.attrs.end_attrs));
      } else {
        parts.push(flat(item.attrs));
      }
      if (item.service) parts.push(item.service);
    }
    for (const name of names) parts.push(name); // a spread of 200,000 names overflows the stack
    return parts.join('\u0001').toLowerCase();
  });
  cache.set(store, texts);
  return texts;
}

function flat(value: AttrValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'object') return String(value);
  if (Array.isArray(value)) return value.map(flat).join(' ');
  return Object.entries(value)
    .map(([k, v]) => `${k}=${flat(v)}`)
    .join(' ');
}
