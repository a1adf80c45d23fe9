import { useEffect, useRef, useState } from 'react';
import { useCommand, useHost } from '../host/host-context';
import { applyTheme, type ThemeChoice } from '../theme/theme-store';
import { exportActiveFile } from './export-active-file';
import { shareReport } from './share-report';
import { useFilesStore } from '../state/files-store';
import { useTrendsStore } from '../state/trends-store';
import { useRunStore } from '../run/run-store';
import { compareAvailability, exportAvailability, shareAvailability } from './compare-availability';

/** Export, theme and help: the menu's commands, reachable in serve mode too. */
export function TopBarActions({ onShortcuts }: { onShortcuts: () => void }) {
  const host = useHost();
  const hasFile = useFilesStore((s) => s.activeFileId !== null);
  const files = useFilesStore((s) => s.files);
  const activeFileId = useFilesStore((s) => s.activeFileId);
  const compareFileId = useFilesStore((s) => s.compareFileId);
  const setCompare = useFilesStore((s) => s.setCompare);
  const others = files.filter((f) => f.fileId !== activeFileId);
  const runActive = useRunStore((s) => s.activeId !== null);
  const runComplete = useRunStore(
    (s) => s.runs.find((r) => r.id === s.activeId)?.result?.complete === true,
  );
  const trendsActive = useTrendsStore((s) => s.activeId !== null);
  const compare = compareAvailability({ hasFile, runActive, trendsActive });
  const exporting = exportAvailability({ hasFile, runActive, trendsActive });
  const share = shareAvailability({ hasFile, runActive, trendsActive, runComplete });
  // a file's compare shows only on its own page: not under a run or trends tab shown instead
  const comparing = compareFileId !== null && compare.available;
  const [open, setOpen] = useState<'export' | 'share' | 'theme' | 'compare' | null>(null);
  const [withContent, setWithContent] = useState(false);
  const [sharing, setSharing] = useState(false);
  // a shared report is what was shared: it exports and shares nothing again
  const frozen = host.kind === 'report';

  useCommand((command) => {
    if (command === 'compare' && compare.available) setOpen('compare');
    if (command === 'share-report' && share.available && !frozen) setOpen('share');
  });
  const ref = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const onDown = (event: MouseEvent) => {
      if (!ref.current?.contains(event.target as Node)) setOpen(null);
    };
    window.addEventListener('mousedown', onDown);
    return () => window.removeEventListener('mousedown', onDown);
  }, [open]);

  const theme = (choice: ThemeChoice) => {
    applyTheme(choice);
    setOpen(null);
  };

  return (
    <div className="top-bar-actions" ref={ref}>
      {/* a shared report compares only the pair it holds, and opens nothing */}
      <div className="menu-button" hidden={frozen && !host.holdsCompare}>
        <button
          type="button"
          className="button"
          disabled={!compare.available}
          title={compare.available ? undefined : compare.reason}
          aria-pressed={comparing}
          data-testid="compare-button"
          onClick={() =>
            comparing ? setCompare(null) : setOpen(open === 'compare' ? null : 'compare')
          }
        >
          {comparing ? 'Exit compare' : 'Compare with ▾'}
        </button>
        {open === 'compare' && compare.available && (
          <div className="menu-popup" role="menu" data-testid="compare-menu">
            {others.length === 0 && (
              <span className="muted menu-note">Open a second file to compare.</span>
            )}
            {others.map((file) => (
              <button
                key={file.fileId}
                type="button"
                role="menuitem"
                onClick={() => {
                  setOpen(null);
                  setCompare(file.fileId);
                }}
              >
                {file.name}
              </button>
            ))}
          </div>
        )}
      </div>
      {!frozen && (
        <div className="menu-button">
          <button
            type="button"
            className="button"
            disabled={!share.available || sharing}
            title={share.available ? 'One HTML file anyone opens offline' : share.reason}
            data-testid="share-button"
            onClick={() => setOpen(open === 'share' ? null : 'share')}
          >
            {sharing ? 'Sharing…' : 'Share ▾'}
          </button>
          {open === 'share' && share.available && (
            <div className="menu-popup share-menu" role="menu" data-testid="share-menu">
              <label className="menu-check">
                <input
                  type="checkbox"
                  checked={withContent}
                  data-testid="share-with-content"
                  onChange={(event) => setWithContent(event.currentTarget.checked)}
                />
                Include prompts and responses
              </label>
              <button
                type="button"
                role="menuitem"
                data-testid="share-report"
                onClick={() => {
                  setOpen(null);
                  setSharing(true);
                  void shareReport(host, withContent).finally(() => setSharing(false));
                }}
              >
                {runActive
                  ? 'Report of this run (.html)'
                  : comparing
                    ? 'Report of this compare (.html)'
                    : 'Report of this file (.html)'}
              </button>
            </div>
          )}
        </div>
      )}
      <div className="menu-button" hidden={frozen}>
        <button
          type="button"
          className="button"
          disabled={!exporting.available}
          title={exporting.available ? undefined : exporting.reason}
          data-testid="export-button"
          onClick={() => setOpen(open === 'export' ? null : 'export')}
        >
          Export ▾
        </button>
        {open === 'export' && exporting.available && (
          <div className="menu-popup" role="menu">
            <button
              type="button"
              role="menuitem"
              onClick={() => {
                setOpen(null);
                void exportActiveFile(host, 'perfetto');
              }}
            >
              Perfetto trace (.json.gz)
            </button>
            <button
              type="button"
              role="menuitem"
              onClick={() => {
                setOpen(null);
                void exportActiveFile(host, 'csv');
              }}
            >
              Rows as CSV
            </button>
          </div>
        )}
      </div>
      <div className="menu-button">
        <button
          type="button"
          className="button"
          title="Theme"
          onClick={() => setOpen(open === 'theme' ? null : 'theme')}
        >
          ◐
        </button>
        {open === 'theme' && (
          <div className="menu-popup" role="menu">
            <button type="button" role="menuitem" onClick={() => theme('system')}>
              Follow system
            </button>
            <button type="button" role="menuitem" onClick={() => theme('light')}>
              Light
            </button>
            <button type="button" role="menuitem" onClick={() => theme('dark')}>
              Dark
            </button>
          </div>
        )}
      </div>
      <button type="button" className="button" title="Keyboard shortcuts (?)" onClick={onShortcuts}>
        ?
      </button>
    </div>
  );
}
