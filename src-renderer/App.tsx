import { useCallback, useEffect, useState } from 'react';
import type { FileError, MenuCommand } from '../src-main/core/api/trace-api';
import type { TraceHost } from './host/trace-host';
import { useFilesStore } from './state/files-store';
import { TopBar } from './frame/TopBar';
import { ErrorBanner } from './frame/ErrorBanner';
import { DropZone, EmptyState } from './frame/DropZone';
import { ShortcutsDialog } from './frame/ShortcutsDialog';
import { applyTheme, broadcastCommand, exportActiveFile, restoreTheme } from './frame/commands';
import { FileView } from './timeline/FileView';
import { CompareView } from './compare/CompareView';
import { TrendsView } from './trends/TrendsView';
import { openTrends } from './trends/open-trends';
import { useTrendsStore } from './state/trends-store';
import { RunView } from './run/RunView';
import { openRun } from './run/open-run';
import { useRunStore } from './run/run-store';

export function App({ host }: { host: TraceHost }) {
  const files = useFilesStore((s) => s.files);
  const activeFileId = useFilesStore((s) => s.activeFileId);
  const active = files.find((f) => f.fileId === activeFileId) ?? null;
  const compareFileId = useFilesStore((s) => s.compareFileId);
  const compared = files.find((f) => f.fileId === compareFileId) ?? null;
  const [showShortcuts, setShowShortcuts] = useState(false);
  const activeTrends = useTrendsStore((s) => s.sets.find((t) => t.id === s.activeId) ?? null);
  const activeRun = useRunStore((s) => s.runs.find((r) => r.id === s.activeId) ?? null);

  /** Files main opened (start-up, menu, second instance): show them as tabs. */
  const adoptFiles = useCallback(
    async (fileIds: string[], compare: boolean, errors: FileError[]) => {
      const listed = await host.api.listFiles();
      const store = useFilesStore.getState();
      for (const file of listed) {
        if (!fileIds.includes(file.fileId)) continue;
        // shown while it was read (previews): the whole file's summary takes its place
        if (store.files.some((f) => f.fileId === file.fileId)) store.replaceFile(file.fileId, file);
        else store.addFile(file);
      }
      for (const error of errors) store.addError(error);
      if (compare && fileIds.length >= 2) {
        store.setActive(fileIds[0]);
        store.setCompare(fileIds[1]);
      }
    },
    [host],
  );

  const runCommand = useCallback(
    (command: MenuCommand) => {
      const store = useFilesStore.getState();
      switch (command) {
        case 'open':
          document.querySelector<HTMLInputElement>('[data-testid="file-input"]')?.click();
          return;
        case 'close-tab':
          if (store.activeFileId) {
            void host.api.close(store.activeFileId);
            store.removeFile(store.activeFileId);
          }
          return;
        case 'export-perfetto':
          return void exportActiveFile(host, 'perfetto');
        case 'export-csv':
          return void exportActiveFile(host, 'csv');
        case 'theme-light':
          return applyTheme('light');
        case 'theme-dark':
          return applyTheme('dark');
        case 'theme-system':
          return applyTheme('system');
        case 'shortcuts':
          return setShowShortcuts(true);
        default:
          // zoom, panels, compare, about: the views below the frame carry them out
          broadcastCommand(command);
      }
    },
    [host],
  );

  // a file that becomes active (opened, picked) is shown instead of a trends tab
  useEffect(
    () =>
      useFilesStore.subscribe((state, previous) => {
        if (state.activeFileId !== previous.activeFileId) {
          useTrendsStore.getState().setActive(null);
          useRunStore.getState().setActive(null);
        }
      }),
    [],
  );

  useEffect(() => {
    restoreTheme();
    const offProgress = host.api.onProgress((progress) =>
      useFilesStore.getState().progress(progress),
    );
    const offHost = host.api.onHostEvent((event) => {
      if (event.type === 'files-opened') {
        void adoptFiles(event.fileIds, event.compare, event.errors);
        for (const folder of event.trendFolders ?? []) void openTrends(host, [folder]);
        for (const paths of event.runs ?? []) void openRun(host, paths);
      } else if (event.type === 'trends-progress') {
        useTrendsStore.getState().progress(event.openId, event.progress);
      } else if (event.type === 'command') runCommand(event.command);
      // 'run-updated' is followed by the run tab that asked (run/open-run.ts)
    });
    let cancelled = false;
    // Files named on the command line (or the demo rollout) are opened by main at start-up.
    void host.api.initialFiles().then(async (initial) => {
      if (cancelled) return;
      await adoptFiles(initial.fileIds, initial.compare, initial.errors);
      // folders of rollout dumps named at start-up open as their trends
      for (const folder of initial.trendFolders) void openTrends(host, [folder]);
      // folders that are a run open as one run tab
      for (const paths of initial.runs) void openRun(host, paths);
      document.body.dataset.ready = 'true';
    });
    return () => {
      cancelled = true;
      offProgress();
      offHost();
    };
  }, [host, adoptFiles, runCommand]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      const typing =
        target &&
        (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.isContentEditable);
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'o') {
        event.preventDefault();
        runCommand('open');
      } else if (!typing && event.key === '?') {
        setShowShortcuts(true);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [runCommand]);

  return (
    <DropZone host={host}>
      <div className="app">
        <TopBar host={host} onShortcuts={() => setShowShortcuts(true)} />
        <ErrorBanner />
        <main className="workspace">
          {activeRun ? (
            <RunView host={host} run={activeRun} key={activeRun.id} />
          ) : activeTrends ? (
            <TrendsView host={host} set={activeTrends} key={activeTrends.id} />
          ) : active && compared ? (
            <CompareView
              host={host}
              fileA={active}
              fileB={compared}
              onExit={() => useFilesStore.getState().setCompare(null)}
              key={`${active.fileId}:${compared.fileId}`}
            />
          ) : active ? (
            <FileView host={host} file={active} key={active.fileId} />
          ) : (
            <EmptyState />
          )}
        </main>
      </div>
      {showShortcuts && <ShortcutsDialog onClose={() => setShowShortcuts(false)} />}
    </DropZone>
  );
}
