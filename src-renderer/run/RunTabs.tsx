import type { TraceHost } from '../host/trace-host';
import { closeRun } from './open-run';
import { useRunStore } from './run-store';
import { distinctTabNames } from '../units/tab-names';

/** The run tabs in the top bar: one per opened run. */
export function RunTabs({ host, onActivate }: { host: TraceHost; onActivate(): void }) {
  const runs = useRunStore((s) => s.runs);
  const activeId = useRunStore((s) => s.activeId);
  // two run folders of one name are told apart by the folders above them, as file tabs are
  const names = distinctTabNames(
    runs.map((run) => ({ name: run.title, path: run.paths.length === 1 ? run.paths[0] : null })),
  );
  return (
    <>
      {runs.map((run, i) => (
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
          <span className="tab-name">{names[i]}</span>
          <button
            type="button"
            className="tab-close"
            aria-label={`Close run ${names[i]}`}
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
