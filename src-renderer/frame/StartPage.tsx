import { useEffect, useState } from 'react';
import type { StartPage as StartInfo } from '../../src-main/core/api/trace-api';
import { useHost } from '../host/host-context';
import { openSources } from '../opening/open-files';
import { openDroppedTogether } from '../run/open-run';
import { useFilesStore } from '../state/files-store';
import { recentPaths } from '../state/recent-paths';
import { elideMiddle } from '../widgets/elide-middle';
import './start-page.css';

/** the recent list's length and the longest path it shows (cut in its middle) */
const RECENT_SHOWN = 8;
const PATH_CHARS = 72;

/**
 * What the window shows with no file open: what it opens (each format by its name from the
 * registry, and folders), the demo rollout in one click, and the files opened lately.
 */
export function EmptyState() {
  const opening = useFilesStore((s) => s.opening);
  if (opening.length > 0) {
    // files named at start-up: their progress and Cancel are in the tab bar above
    return (
      <div className="empty-state" data-testid="empty-state-opening">
        <div className="empty-title">
          Opening {opening.map((o) => elideMiddle(o.name, PATH_CHARS)).join(', ')}…
        </div>
      </div>
    );
  }
  return <StartPage />;
}

function StartPage() {
  const host = useHost();
  const [info, setInfo] = useState<StartInfo | null>(null);
  useEffect(() => {
    let live = true;
    void host.api.startPage().then(
      (answer) => live && setInfo(answer),
      // an older main without the call: the page still says how to open files
      () => live && setInfo({ formats: [], recent: [], demoPath: null }),
    );
    return () => {
      live = false;
    };
  }, [host]);
  const recent = info
    ? [...new Set([...info.recent, ...recentPaths()])].slice(0, RECENT_SHOWN)
    : [];
  const demoPath = info?.demoPath ?? null;

  return (
    <div className="empty-state start-page" data-testid="empty-state" data-ready={info !== null}>
      <div className="empty-title">Drop files or folders here, or press Open… (Ctrl+O)</div>
      {demoPath && (
        <button
          type="button"
          className="button start-demo"
          data-testid="start-demo"
          onClick={() =>
            void openSources(host, [{ kind: 'path', path: demoPath }], 'rollout_demo.pt', 0)
          }
        >
          Open the demo rollout
        </button>
      )}
      <div className="start-columns">
        <section>
          <h3>Files</h3>
          <ul className="start-formats" data-testid="start-formats">
            {(info?.formats ?? []).map((format) => (
              <li key={format.name} data-testid="start-format" data-format={format.name}>
                <span className="start-format-name" title={format.expected}>
                  {format.name}
                </span>
                {suffixOf(format) && <span className="muted"> {suffixOf(format)}</span>}
              </li>
            ))}
          </ul>
          <p className="muted">Two files side by side: open both, then Compare.</p>
        </section>
        <section>
          <h3>Folders</h3>
          <ul className="start-formats" data-testid="start-folders">
            <li>
              <span className="start-format-name">a run</span>
              <span className="muted">
                {' '}
                · its rollout dumps, SGLang traces and trainer timeline on one clock
              </span>
            </li>
            <li>
              <span className="start-format-name">rollout dumps</span>
              <span className="muted"> · trends: one point per rollout</span>
            </li>
          </ul>
          {recent.length > 0 && (
            <>
              <h3>Recent</h3>
              <ul className="start-recent" data-testid="start-recent">
                {recent.map((path) => (
                  <li key={path}>
                    <button
                      type="button"
                      className="link-button"
                      title={path}
                      onClick={() => void openDroppedTogether(host, [path])}
                    >
                      {elideMiddle(path, PATH_CHARS)}
                    </button>
                  </li>
                ))}
              </ul>
            </>
          )}
        </section>
      </div>
    </div>
  );
}

/** what a format's expected text adds in parentheses (a file suffix), unless its name has it */
function suffixOf(format: { name: string; expected: string }): string | null {
  if (format.name.includes('(')) return null;
  return /\([^)]*\)$/.exec(format.expected)?.[0] ?? null;
}
