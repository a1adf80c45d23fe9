import type { ReactNode } from 'react';
import type { FileSummary } from '../../src-main/core/api/trace-api';
import { legendEntries } from './legend-entries';

/** The most frequent span names with counts (click highlights, × hides) and the PD phases. */
export function Legend(props: {
  file: FileSummary;
  hidden: Set<string>;
  highlight: string[] | null;
  onHighlight: (name: string | null) => void;
  onToggleHidden: (name: string) => void;
  extra?: ReactNode;
}) {
  const { names, phases } = legendEntries(props.file);
  const hasPd = phases.length > 0;
  return (
    <div className="legend" data-testid="legend">
      {names.map(({ name, count, colour }) => (
        <span
          key={name}
          className={`legend-entry${props.hidden.has(name) ? ' hidden' : ''}${props.highlight?.includes(name) ? ' highlighted' : ''}`}
          data-name={name}
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
            {name} <span className="muted">{count}</span>
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
