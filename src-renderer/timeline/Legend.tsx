import type { ReactNode } from 'react';
import { legendEntries, type SpanNameCount } from './legend-entries';

/** The most frequent span names with counts (click highlights, × hides) and the PD phases. */
export function Legend(props: {
  /** the span names to list (a file's, or the rows a lane timeline has fetched) */
  file: { spanNames: SpanNameCount[] };
  hidden: Set<string>;
  highlight: string[] | null;
  onHighlight: (name: string | null) => void;
  onToggleHidden: (name: string) => void;
  extra?: ReactNode;
  /** only the controls (`extra`): a twin timeline's legend lists the names */
  controlsOnly?: boolean;
}) {
  const { names, phases } = props.controlsOnly
    ? { names: [], phases: [] }
    : legendEntries(props.file);
  const hasPd = phases.length > 0;
  return (
    <div
      className={`legend${props.controlsOnly ? ' controls-only' : ''}`}
      data-testid={props.controlsOnly ? 'legend-controls' : 'legend'}
    >
      {names.map(({ name, count, colour, category }) => (
        <span
          key={name}
          className={`legend-entry${category ? ' category' : ''}${props.hidden.has(name) ? ' hidden' : ''}${props.highlight?.includes(name) ? ' highlighted' : ''}`}
          data-name={name}
          data-category={category ? 'true' : undefined}
          data-testid={category ? 'legend-category' : undefined}
        >
          <button
            type="button"
            className="legend-name"
            title="Highlight"
            onClick={() =>
              props.onHighlight(
                props.highlight?.length === 1 && props.highlight[0] === name ? null : name,
              )
            }
          >
            <span className="swatch" data-testid="legend-swatch" style={{ background: colour }} />
            {category ? `${name} kernels` : name} <span className="muted">{count}</span>
          </button>
          <button
            type="button"
            className="legend-hide"
            title={props.hidden.has(name) ? 'Show' : 'Hide'}
            onClick={() => props.onToggleHidden(name)}
          >
            {props.hidden.has(name) ? '+' : '×'}
          </button>
        </span>
      ))}
      {hasPd && (
        <span className="pd-legend" data-testid="pd-legend">
          {(['prefill', 'decode'] as const).map((role) => (
            <span key={role} className="pd-role">
              <b>{role === 'prefill' ? '[P]' : '[D]'}</b>
              {phases
                .filter((p) => p.role === role)
                .map((p) => (
                  <span key={p.phase} className="pd-phase" title={`${role} ${p.phase}`}>
                    <span
                      className="swatch"
                      data-testid="legend-swatch"
                      style={{ background: p.colour }}
                    />
                    {p.phase.replace(/_/g, ' ')}
                  </span>
                ))}
            </span>
          ))}
        </span>
      )}
      <span className="legend-extra">{props.extra}</span>
    </div>
  );
}
