import type { FileSummary } from '../../src-main/core/api/trace-api';
import type { ShownOrder } from '../host/shown-order';

/**
 * "N / M rows": the rows shown (or, highlighting, the rows matched) out of the rows they were
 * picked from, and a dump's samples that have no row. M is the order's own total: while a file
 * is read, its summary and its order come from previews of their own, and the summary's count
 * beside the order's read once "2000 / 1000 rows".
 */
export function RowCount(props: {
  file: FileSummary;
  order: ShownOrder | null;
  highlighting: boolean;
  /** rows the filter matches, highlighting */
  matching: ReadonlySet<number> | null;
}) {
  const { file, order, highlighting, matching } = props;
  const shown = highlighting ? (matching?.size ?? null) : order ? order.rowIds.length : null;
  const total = order?.total ?? file.rows;
  return (
    <span
      className="row-count"
      data-testid="row-count"
      data-shown={shown ?? undefined}
      data-total={total}
      data-mode={highlighting ? 'highlight' : 'filter'}
    >
      <b>{shown ?? '…'}</b> {highlighting ? 'match of' : '/'} {total} rows
      {file.capabilities.facets.untraced && (
        <span
          className={`untraced${file.untracedSamples > 0 ? ' some' : ''}`}
          data-testid="untraced-count"
          data-count={file.untracedSamples}
          title="Samples in the dump that carry no trace: they have no row"
        >
          {' '}
          · {file.untracedSamples} {file.untracedSamples === 1 ? 'sample' : 'samples'} without trace
        </span>
      )}
    </span>
  );
}
