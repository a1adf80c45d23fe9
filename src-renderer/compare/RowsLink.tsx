import type { ReactNode } from 'react';
import type { FileSummary } from '../../src-main/core/api/trace-api';
import { showRowsOf } from './show-rows';

/** ids named in a link's tooltip; a status of 100k samples would put 600 kB in one attribute */
const NAMED_IDS = 20;

/** A figure that counts rows: a click shows them in that file's timeline; plain text otherwise. */
export function RowsLink({
  file,
  rowIds,
  label,
  children,
}: {
  file: FileSummary;
  rowIds: ArrayLike<number> | undefined;
  label: string;
  children: ReactNode;
}) {
  if (!rowIds || rowIds.length === 0) return <>{children}</>;
  const named = Array.from({ length: Math.min(rowIds.length, NAMED_IDS) }, (_, i) => rowIds[i]);
  const list = `${named.join(', ')}${rowIds.length > NAMED_IDS ? `, … (${rowIds.length} rows)` : ''}`;
  return (
    <button
      type="button"
      className="answer-link"
      title={`show ${file.name}'s rows ${list}`}
      data-row-ids={list}
      onClick={() => showRowsOf(file, Array.from(rowIds), label)}
    >
      {children}
    </button>
  );
}
