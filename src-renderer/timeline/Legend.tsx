import type { ReactNode } from 'react';
import type { FileSummary } from '../../src-main/core/api/trace-api';
import { PD_PHASES } from '../../src-main/core/model/pd-phases';
import { colourForName } from './span-colours';

const MAX_NAMES = 12;

/** The most frequent span names with counts (click highlights, × hides) and the PD phases. */
export function Legend(props: {
  file: FileSummary;
  hidden: Set<string>;
  highlight: string[] | null;
  onHighlight: (name: string | null) => void;
  onToggleHidden: (name: string) => void;
  extra?: ReactNode;
}) {
  const names = props.file.spanNames
    .filter((n) => !/^sglang_pd_(prefill|decode)_/.test(n.name))
    .slice(0, MAX_NAMES);
  const hasPd = props.file.spanNames.some((n) =>
    /\[P\]|\[D\]|^sglang_pd_(prefill|decode)$/.test(n.name),
  );
  return (
    <div className="legend" data-testid="legend">
      {names.map(({ name, count }) => (
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
            <span className="swatch" style={{ background: colourForName(name) }} />
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
              {PD_PHASES.filter((p) => p.role === role).map((p) => (
                <span key={p.phase} className="pd-phase" title={`${role} ${p.phase}`}>
                  <span className="swatch" style={{ background: p.colour }} />
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
