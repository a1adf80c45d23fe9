import { useRef } from 'react';
import { OpeningItem } from '../widgets/OpeningItem';
import { useHost } from '../host/host-context';
import type { FileSummary } from '../../src-main/core/api/trace-api';
import { useFilesStore } from '../state/files-store';
import { useTrendsStore } from '../state/trends-store';
import { RunTabs } from '../run/RunTabs';
import { RunOpeningItems } from '../run/RunOpeningItems';
import { useRunStore } from '../run/run-store';
import { cancelOpening, openFiles } from '../opening/open-files';
import { TopBarActions } from './TopBarActions';
import { formatMegabytesPerSecond, formatProgress } from '../units/byte-size';
import { distinctTabNames } from '../units/tab-names';

const ACCEPT = '.pt,.pth,.jsonl,.json,.gz';

/**
 * Open button, one tab per open file (with close), and what is being opened: each file, and
 * each run as one item (its files inside it).
 */
export function TopBar({ onShortcuts }: { onShortcuts: () => void }) {
  const host = useHost();
  const input = useRef<HTMLInputElement>(null);
  const files = useFilesStore((s) => s.files);
  const activeFileId = useFilesStore((s) => s.activeFileId);
  const opening = useFilesStore((s) => s.opening);
  const setActive = useFilesStore((s) => s.setActive);
  const removeFile = useFilesStore((s) => s.removeFile);
  const trendSets = useTrendsStore((s) => s.sets);
  const activeTrendsId = useTrendsStore((s) => s.activeId);
  const setActiveTrends = useTrendsStore((s) => s.setActive);
  const removeTrends = useTrendsStore((s) => s.remove);

  // a tab shown while its file is still read (previews) is 'reading' until the open is over:
  // the app's own word that its counts are final (e2e waits on it, not on a count and a clock)
  const reading = new Set(opening.map((o) => o.fileId));
  // two files of one name (a run's trainer ranks in two folders) are told apart by their folders
  const tabNames = distinctTabNames(files);
  const close = (fileId: string) => {
    removeFile(fileId);
    void host.api.close(fileId);
  };

  return (
    <header className="top-bar">
      <span className="app-title">Trace Explorer</span>
      <button
        type="button"
        className="button primary"
        hidden={host.kind === 'report'}
        data-testid="open-button"
        title="Open files (Ctrl+O)"
        onClick={() => input.current?.click()}
      >
        Open…
      </button>
      <input
        ref={input}
        type="file"
        multiple
        accept={ACCEPT}
        hidden
        data-testid="file-input"
        onChange={(event) => {
          const picked = Array.from(event.currentTarget.files ?? []);
          event.currentTarget.value = '';
          void openFiles(host, picked);
        }}
      />
      <nav className="tabs" role="tablist" aria-label="Open files">
        {files.map((file, i) => (
          <div
            key={file.fileId}
            role="tab"
            aria-selected={file.fileId === activeFileId && !activeTrendsId}
            className={`tab${file.fileId === activeFileId && !activeTrendsId ? ' active' : ''}`}
            data-testid="file-tab"
            data-state={reading.has(file.fileId) ? 'reading' : 'open'}
            title={tabTitle(file)}
            onClick={() => {
              setActive(file.fileId);
              setActiveTrends(null);
              useRunStore.getState().setActive(null);
            }}
          >
            <span className="tab-format">{file.formatLabels.short}</span>
            <span className="tab-name">{tabNames[i]}</span>
            <button
              type="button"
              className="tab-close"
              // a shared report's files are what it is: closed, they could not be opened again
              hidden={host.kind === 'report'}
              aria-label={`Close ${tabNames[i]}`}
              onClick={(event) => {
                event.stopPropagation();
                close(file.fileId);
              }}
            >
              ×
            </button>
          </div>
        ))}
        {trendSets.map((set) => (
          <div
            key={set.id}
            role="tab"
            aria-selected={set.id === activeTrendsId}
            className={`tab${set.id === activeTrendsId ? ' active' : ''}`}
            data-testid="trends-tab"
            title={`Trends of ${set.paths.join(', ')}`}
            onClick={() => {
              setActiveTrends(set.id);
              useRunStore.getState().setActive(null);
            }}
          >
            <span className="tab-format">Trends</span>
            <span className="tab-name">{set.title}</span>
            <button
              type="button"
              className="tab-close"
              aria-label={`Close trends of ${set.title}`}
              onClick={(event) => {
                event.stopPropagation();
                if (set.state === 'reading') void host.api.cancelOpen(set.id);
                removeTrends(set.id);
              }}
            >
              ×
            </button>
          </div>
        ))}
        <RunTabs host={host} onActivate={() => setActiveTrends(null)} />
        <RunOpeningItems host={host} />
        {opening.map((o) => (
          <OpeningItem
            key={o.openId}
            name={o.name}
            bytesRead={o.bytesRead}
            bytesTotal={o.bytesTotal}
            progressLabel={`Reading ${o.name}`}
            onCancel={() => cancelOpening(host, o.openId)}
            testIds={{ item: 'opening-tab', cancel: 'cancel-open' }}
          >
            <span
              className="tab-progress"
              data-testid="opening-stage"
              data-stage={o.stage ?? 'reading'}
            >
              {o.stage === 'preparing' ? 'preparing ' : o.stage === 'uploading' ? 'sending ' : ''}
              {formatProgress(o.bytesRead, o.bytesTotal, o.samplesRead, o.counted)}
            </span>
          </OpeningItem>
        ))}
      </nav>
      <TopBarActions onShortcuts={onShortcuts} />
    </header>
  );
}

/** The tab's tooltip: where the file is, and how long it took to open. */
function tabTitle(file: FileSummary): string {
  const where = file.path ?? file.name;
  const t = file.openTimings;
  if (!t) return where;
  const speed = formatMegabytesPerSecond(file.bytes, t.readSec);
  return `${where}\nopened in ${t.openSec.toFixed(2)} s (read in ${t.readSec.toFixed(2)} s, ${speed})`;
}
