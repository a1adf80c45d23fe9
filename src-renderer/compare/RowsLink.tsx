import type { ReactNode } from 'react';
import type { FileSummary } from '../../src-main/core/api/trace-api';
import { showRowsOf } from './show-rows';

/** A figure that counts rows: a click shows them in that file's timeline; plain text otherwise. */
export function RowsLink({
  file,
  rowIds,
  label,
  children,
}: {
  file: FileSummary;
  rowIds: number[] | undefined;
  label: string;
  children: ReactNode;
}) {
  if (!rowIds || rowIds.length === 0) return <>{children}</>;
  return (
    <button
      type="button"
      className="answer-link"
      title={`show ${file.name}'s rows ${rowIds.join(', ')}`}
      data-row-ids={rowIds.join(',')}
      onClick={() => showRowsOf(file, rowIds, label)}
    >
      {children}
    </button>
  );
}
