import { minOf, maxOf } from '../model/extent';
import type { PyValue } from '../model/py-value';
import type { Row, RowItem, SlimeCache } from '../model/row';
import { buildRows } from './build-rows';
import { round6 } from './python-values';

/** Keys of items and rows that slime's cache has; (ours) extras are left out. */
const SPAN_KEYS = [
  'type',
  'state',
  'name',
  'start_ts',
  'end_ts',
  'display_end_ts',
  'attempt',
  'span_id',
  'parent_span_id',
  'parent_span_name',
  'lane',
  'depth',
  'attrs',
] as const;
const POINT_KEYS = [
  'type',
  'state',
  'name',
  'ts',
  'attempt',
  'span_id',
  'parent_span_id',
  'parent_span_name',
  'lane',
  'depth',
  'attrs',
] as const;

/** `trace-explorer rows FILE`: the cache JSON slime's own viewer writes for a dump. */
export function buildSlimeCache(
  dump: { samples: PyValue[] },
  ptPath: string,
  generatedAt: number,
): SlimeCache {
  const { rows } = buildRows(dump.samples);
  return slimeCacheOf(rows, ptPath, generatedAt);
}

export function slimeCacheOf(rows: Row[], ptPath: string, generatedAt: number): SlimeCache {
  return {
    cache_version: 1,
    pt_path: ptPath,
    generated_at: generatedAt,
    // slime counts the samples that gave a row, not the samples in the dump
    sample_count: rows.length,
    global_start: rows.length === 0 ? null : round6(minOf(rows, (r) => r.start)),
    global_end: rows.length === 0 ? null : round6(maxOf(rows, (r) => r.end)),
    rows: rows.map(stripRow),
  };
}

function stripRow(row: Row): Row {
  return { ...row, items: row.items.map(stripItem) };
}

function stripItem(item: RowItem): RowItem {
  const keys = item.type === 'span' ? SPAN_KEYS : POINT_KEYS;
  const out: Record<string, unknown> = {};
  for (const key of keys) out[key] = (item as unknown as Record<string, unknown>)[key];
  return out as unknown as RowItem;
}
