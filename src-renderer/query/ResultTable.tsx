import { useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import type { SqlCell, SqlResultColumn } from '../../src-main/core/api/trace-api';

const ROW_PX = 24;
const PAGE_ROWS = 2000;

/** The result rows the table has, by page of PAGE_ROWS; asks each missing page once. */
export interface ResultPages {
  columns: SqlResultColumn[];
  rowCount: number;
  page(index: number): SqlCell[][] | undefined;
  want(index: number): void;
}

/**
 * A virtualized result: only the rows in the scrolling box (and a few more) are in the page,
 * so 100k rows scroll as 30 do. Each column's engine type is shown under its name.
 */
export function ResultTable({
  pages,
  onRowClick,
  boxRef,
}: {
  pages: ResultPages;
  /** a row that links to its sample (a click selects it) */
  onRowClick: ((row: SqlCell[]) => void) | null;
  /** the scrolling box, for whoever pictures the table as shown */
  boxRef?: RefObject<HTMLDivElement | null>;
}) {
  const ownBox = useRef<HTMLDivElement>(null);
  const box = boxRef ?? ownBox;
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(400);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setHeight(el.clientHeight));
    observer.observe(el);
    return () => observer.disconnect();
  }, [box]);
  const first = Math.max(0, Math.floor(scrollTop / ROW_PX) - 10);
  const last = Math.min(pages.rowCount, Math.ceil((scrollTop + height) / ROW_PX) + 10);
  const shown: { at: number; row: SqlCell[] | undefined }[] = [];
  for (let at = first; at < last; at++) {
    const page = pages.page(Math.floor(at / PAGE_ROWS));
    shown.push({ at, row: page?.[at % PAGE_ROWS] });
  }
  useEffect(() => {
    for (let p = Math.floor(first / PAGE_ROWS); p <= Math.floor((last - 1) / PAGE_ROWS); p++)
      if (!pages.page(p)) pages.want(p);
  }, [first, last, pages]);
  const template = useMemo(() => columnTemplate(pages), [pages]);
  return (
    <div
      className="sql-result"
      ref={box}
      data-testid="sql-result"
      onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
    >
      <div className="sql-result-head" style={{ gridTemplateColumns: template }}>
        <span className="sql-cell muted">#</span>
        {pages.columns.map((c, k) => (
          <span className="sql-cell" key={k} title={`${c.name}: ${c.type}`}>
            <b>{c.name}</b>
            <span className="sql-type">{c.type}</span>
          </span>
        ))}
      </div>
      <div style={{ height: pages.rowCount * ROW_PX, position: 'relative' }}>
        {shown.map(({ at, row }) => (
          <div
            key={at}
            className={`sql-result-row${onRowClick && row ? ' linked' : ''}`}
            data-testid="sql-row"
            data-row={at}
            style={{ top: at * ROW_PX, gridTemplateColumns: template }}
            onClick={onRowClick && row ? () => onRowClick(row) : undefined}
          >
            <span className="sql-cell muted">{at + 1}</span>
            {row
              ? row.map((v, k) => (
                  <span
                    key={k}
                    className={`sql-cell${typeof v === 'number' ? ' number' : ''}${v === null ? ' muted' : ''}`}
                  >
                    {v === null ? 'NULL' : String(v)}
                  </span>
                ))
              : null}
          </div>
        ))}
      </div>
    </div>
  );
}

/** monospace character width at 12px, and the widest a column starts (its cells then cut) */
const CHAR_PX = 7.3;
const MAX_COLUMN_PX = 420;

/**
 * One set of column widths for the header and every row (each row is its own grid): from the
 * names, types and first page's values, so columns line up however far the table scrolls.
 */
function columnTemplate(pages: ResultPages): string {
  const first = pages.page(0) ?? [];
  const widths = pages.columns.map((column, k) => {
    let chars = Math.max(column.name.length, column.type.length);
    for (let r = 0; r < first.length && r < 500; r++) {
      const value = first[r][k];
      chars = Math.max(chars, value === null ? 4 : String(value).length);
    }
    return Math.min(MAX_COLUMN_PX, Math.ceil(chars * CHAR_PX) + 18);
  });
  const rowNumber = Math.ceil(String(pages.rowCount).length * CHAR_PX) + 18;
  return [rowNumber, ...widths].map((px) => `${px}px`).join(' ');
}
