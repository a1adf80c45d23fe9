import type { TraceHost } from '../host/trace-host';
import { closeRun } from './open-run';
import { useRunStore } from './run-store';

/** The run tabs in the top bar: one per opened run. */
export function RunTabs({ host, onActivate }: { host: TraceHost; onActivate(): void }) {
  const runs = useRunStore((s) => s.runs);
  const activeId = useRunStore((s) => s.activeId);
  return (
    <>
      {runs.map((run) => (
        <div
          key={run.id}
          role="tab"
          aria-selected={run.id === activeId}
          className={`tab${run.id === activeId ? ' active' : ''}`}
          data-testid="run-tab"
          title={`Run: ${run.paths.join(', ')}`}
          onClick={() => {
            onActivate();
            useRunStore.getState().setActive(run.id);
          }}
        >
          <span className="tab-format">Run</span>
          <span className="tab-name">{run.title}</span>
          <button
            type="button"
            className="tab-close"
            aria-label={`Close run ${run.title}`}
            onClick={(event) => {
              event.stopPropagation();
              if (run.state === 'reading') void host.api.cancelOpen(run.id);
              closeRun(host, run.id);
            }}
          >
            ×
          </button>
        </div>
      ))}
    </>
  );
}
