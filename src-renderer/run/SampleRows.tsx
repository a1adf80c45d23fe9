import { useMemo, useState } from 'react';
import type { RowView, RunResult } from '../../src-main/core/api/trace-api';
import { keyOf, nameColour, type SampleRowRef } from './run-model';
import { xOf, type TimeScale } from './RunAxis';
import { ServerLanes, serverBlockHeight } from './ServerLanes';

export const ROW_PX = 20;
/** the span a sample's request is sent from (TRACE_MODEL section 9) */
const CLIENT_SPAN = 'sglang_generate';

export interface SampleRowsProps {
  result: RunResult;
  rows: SampleRowRef[];
  scale: TimeScale;
  labelWidth: number;
  views: Map<string, RowView>;
  serverViews: Map<string, RowView>;
  selectedKey: string | null;
  expanded: Set<string>;
  /** asks for the row views of these rows (the ones in view) */
  onNeedRows(rows: SampleRowRef[]): void;
  onSelect(row: SampleRowRef): void;
  onToggle(row: SampleRowRef): void;
  onOpenRequest(link: RunResult['joins']['links'][number]): void;
}

/**
 * The run's sample rows on its clock, only those in view drawn: each row's extent and its
 * generate spans (stale samples coloured); an expanded row shows its SGLang requests below it.
 */
export function SampleRows(props: SampleRowsProps) {
  const { result, rows, scale, labelWidth, views, selectedKey, expanded } = props;
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(400);
  // a run may hold 100k samples: their links by row, once
  const linksByRow = useMemo(() => {
    const map = new Map<string, RunResult['joins']['links']>();
    for (const link of result.joins.links) {
      const key = keyOf(link.client.file, link.client.rowId);
      const list = map.get(key);
      if (list) list.push(link);
      else map.set(key, [link]);
    }
    return map;
  }, [result]);
  const linksOf = (row: SampleRowRef) => linksByRow.get(keyOf(row.file, row.rowId)) ?? [];
  const heightOf = (row: SampleRowRef) => {
    if (!expanded.has(keyOf(row.file, row.rowId))) return ROW_PX;
    return (
      ROW_PX +
      linksOf(row).reduce(
        (h, l) =>
          h + serverBlockHeight(props.serverViews.get(keyOf(l.server.file, l.server.rowId))) + 24,
        0,
      )
    );
  };
  const tops: number[] = [];
  let total = 0;
  for (const row of rows) {
    tops.push(total);
    total += heightOf(row);
  }
  let first = 0;
  while (first < rows.length - 1 && tops[first + 1] <= scrollTop) first++;
  let last = first;
  while (last < rows.length && tops[last] < scrollTop + height) last++;
  const visible = rows.slice(first, last + 1);
  const missing = visible.filter((r) => !views.has(keyOf(r.file, r.rowId)));
  if (missing.length > 0) queueMicrotask(() => props.onNeedRows(missing));
  return (
    <div
      className="run-samples"
      data-testid="run-samples"
      ref={(el) => {
        if (el && el.clientHeight !== height) setHeight(el.clientHeight);
      }}
      onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
    >
      <div style={{ height: total, position: 'relative' }}>
        {visible.map((row, k) => {
          const key = keyOf(row.file, row.rowId);
          const view = views.get(key);
          const origin = result.files[row.file].file.globalStartSec ?? 0;
          const isOpen = expanded.has(key);
          return (
            <div
              key={key}
              className={`run-sample${selectedKey === key ? ' selected' : ''}${row.stale ? ' stale' : ''}`}
              style={{ top: tops[first + k], height: heightOf(row) }}
              data-testid="run-sample-row"
              data-key={key}
              data-stale={row.stale ? 'true' : 'false'}
            >
              <div
                className="run-label"
                style={{ width: labelWidth }}
                onClick={() => props.onSelect(row)}
              >
                <button
                  type="button"
                  className="run-expand"
                  aria-label={isOpen ? 'Hide server requests' : 'Show server requests'}
                  data-testid="run-expand"
                  disabled={row.links === 0}
                  onClick={(e) => {
                    e.stopPropagation();
                    props.onToggle(row);
                  }}
                >
                  {row.links === 0 ? '·' : isOpen ? '▾' : '▸'}
                </button>
                r{String(row.rolloutId)} #{String(view?.sampleIndex ?? row.rowId)}
                {row.stale ? <span className="run-stale-badge">stale</span> : null}
                {row.links > 1 ? <span className="run-count-badge">{row.links} req</span> : null}
              </div>
              <svg width={scale.width} height={ROW_PX} onClick={() => props.onSelect(row)}>
                <rect
                  x={xOf(scale, row.startSec)}
                  y={8}
                  width={Math.max(1, xOf(scale, row.endSec) - xOf(scale, row.startSec))}
                  height={4}
                  className="run-sample-extent"
                />
                {(view?.items ?? [])
                  .filter((i) => i.kind === 'span' && i.name === CLIENT_SPAN)
                  .map((i) => (
                    <rect
                      key={i.index}
                      x={xOf(scale, origin + i.startSec)}
                      y={4}
                      width={Math.max(
                        1.5,
                        xOf(scale, origin + i.endSec) - xOf(scale, origin + i.startSec),
                      )}
                      height={12}
                      fill={row.stale ? 'var(--run-stale)' : nameColour(i.name)}
                      data-testid="run-generate-span"
                    />
                  ))}
              </svg>
              {isOpen && view
                ? linksOf(row).map((link) => {
                    const client = view.items[link.client.itemIndex];
                    const server = props.serverViews.get(
                      keyOf(link.server.file, link.server.rowId),
                    );
                    return client ? (
                      <div
                        key={link.rid}
                        className="run-server-row"
                        style={{ marginLeft: labelWidth }}
                      >
                        <ServerLanes
                          link={link}
                          client={client}
                          clientOriginSec={origin}
                          server={server}
                          serverOriginSec={result.files[link.server.file].file.globalStartSec ?? 0}
                          width={scale.width}
                          onOpenRequest={() => props.onOpenRequest(link)}
                        />
                      </div>
                    ) : null;
                  })
                : null}
            </div>
          );
        })}
      </div>
    </div>
  );
}
