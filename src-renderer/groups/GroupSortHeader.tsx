import type { GroupColumn, GroupOrder } from './group-order';

/**
 * A sortable column's header: a click orders the groups by it (largest, slowest, best first;
 * the group column by position), a second click reverses; aria-sort says which is shown. A
 * label's lines are split at '\n'.
 */
export function GroupSortHeader({
  column,
  label,
  title,
  order,
  onSort,
}: {
  column: GroupColumn;
  label: string;
  title?: string;
  order: GroupOrder;
  onSort: (column: GroupColumn) => void;
}) {
  const active = order.column === column;
  // each column's own first order is its natural one: descending, but the group column's
  const firstAscending = column === 'group' || column === 'reward-std';
  const ascending = active && firstAscending !== order.reverse;
  return (
    <th
      title={title}
      aria-sort={active ? (ascending ? 'ascending' : 'descending') : 'none'}
      className={active ? 'sorted' : undefined}
    >
      <button
        type="button"
        className="th-button group-sort"
        data-testid={`groups-sort-${column.replace(':', '-')}`}
        onClick={() => onSort(column)}
      >
        {/* a label's lines ('\n'): headers wrap where they read well, not mid-figure; the
            sort's mark stays on the last line */}
        {label.split('\n').map((line, i, lines) => (
          <span key={i} className="group-sort-line">
            {line}
            {i === lines.length - 1 && active && (
              <span className="sort-mark" aria-hidden>
                {ascending ? ' ▲' : ' ▼'}
              </span>
            )}
          </span>
        ))}
      </button>
    </th>
  );
}
