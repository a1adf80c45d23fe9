import type { FileSummary } from '../../src-main/core/api/trace-api';
import { useViewStore } from '../state/view-store';
import { activeConditionCount, isFilterActive } from '../state/filter-state';
import './filter-scope.css';

/**
 * Which rows a panel describes while the timeline's search or filter is on: these panels
 * (perf, groups) always describe every row of the file, and say so, so "1024 samples" beside
 * the timeline's "0 / 1024 rows" does not read as a contradiction.
 */
export function FilterScopeNote({ file, what }: { file: FileSummary; what: string }) {
  const filter = useViewStore((s) => s.filter);
  if (!isFilterActive(filter)) return null;
  const n = activeConditionCount(filter);
  const narrowing = filter.text
    ? `the search “${filter.text}”${n > 1 ? ` and ${n - 1} more condition${n === 2 ? '' : 's'}` : ''}`
    : `${n} filter condition${n === 1 ? '' : 's'}`;
  return (
    <p className="filter-scope" data-testid="filter-scope" data-rows={file.rows}>
      {what} cover all {file.rows} rows of the file: {narrowing} narrow{n === 1 ? 's' : ''} only the
      timeline.
    </p>
  );
}
