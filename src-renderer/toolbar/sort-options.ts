import type { FormatCapabilities } from '../../src-main/core/model/file-format';
import type { SortKey } from '../../src-main/core/api/trace-api';
import { SORT_KEYS } from '../../src-main/core/api/sort-keys';

/**
 * The sort menu's entries for a file: only orders its rows can answer (no reward or group
 * order for a file without rewards or groups: every row would tie), worded for what its rows
 * are (a trace file's rows are no samples).
 */
export function sortOptions(capabilities: FormatCapabilities): [SortKey, string][] {
  const { facets, samples } = capabilities;
  const offered = (key: SortKey): boolean => {
    switch (key) {
      case 'reward':
        return facets.rewards;
      case 'group':
      case 'group_duration':
        return facets.groups;
      case 'sample_index':
        // without samples a row's index is its place in the file: the same as file order
        return samples;
      default:
        return true;
    }
  };
  return SORT_KEYS.filter(({ key }) => offered(key)).map(({ key, label }): [SortKey, string] => [
    key,
    samples ? label : (NOT_SAMPLES[key] ?? label),
  ]);
}

const NOT_SAMPLES: Partial<Record<SortKey, string>> = {
  row_id: 'file order',
  duration: 'duration',
};
