import { useCallback, useEffect, useState } from 'react';
import type { FileError, MenuCommand } from '../src-main/core/api/trace-api';
import { useDispatchCommand, useHost } from './host/host-context';
import { useViewStore } from './state/view-store';
import { useFilesStore } from './state/files-store';
import { opensSyncInTurn } from './state/sync-opens';
import { TopBar } from './frame/TopBar';
import { ErrorBanner } from './frame/ErrorBanner';
import { DropZone } from './frame/DropZone';
import { EmptyState } from './frame/StartPage';
import { ShortcutsDialog } from './frame/ShortcutsDialog';
import { exportActiveFile } from './frame/export-active-file';
import { applyTheme, restoreTheme } from './theme/theme-store';
import { FilePage } from './page/FilePage';
import { useShownWorkspaceView } from './views/registry';
import { openTrends } from './trends/open-trends';
import { useTrendsStore } from './state/trends-store';
import { openRun } from './run/open-run';
import { useRunStore } from './run/run-store';
import { syncRuns } from './run/sync-runs';
import { syncTrends } from './trends/sync-trends';

/** The frame (tabs, banners, drop zone) around the workspace: a file's page or a workspace view. */
export function App() {
  const host = useHost();
  const dispatchCommand = useDispatchCommand();
  const files = useFilesStore((s) => s.files);
  const activeFileId = useFilesStore((s) => s.activeFileId);
  const active = files.find((f) => f.fileId === activeFileId) ?? null;
  const [showShortcuts, setShowShortcuts] = useState(false);
  const workspaceView = useShownWorkspaceView(active);

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
          // a shared report opens no other file (its Open… button is hidden too)
          if (host.kind === 'report') return;
          document.querySelector<HTMLInputElement>('[data-testid="file-input"]')?.click();
          return;
        case 'close-tab':
          if (store.activeFileId && host.kind !== 'report') {
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
          dispatchCommand(command);
      }
    },
    [host, dispatchCommand],
  );

  // a file that becomes active (opened, picked) is shown instead of a trends tab
  useEffect(
    () =>
      useFilesStore.subscribe((state, previous) => {
        if (state.activeFileId !== previous.activeFileId) {
          useTrendsStore.getState().setActive(null);
          useRunStore.getState().setActive(null);
          // each file keeps its own sort, filter and highlights
          useViewStore.getState().showFile(previous.activeFileId, state.activeFileId);
        }
      }),
    [],
  );

  useEffect(() => {
    restoreTheme();
    // a run's files show in its tab's strip and as its one top-bar item, not as opening files
    const offProgress = host.api.onProgress((progress) => {
      if (!useRunStore.getState().fileProgress(progress))
        useFilesStore.getState().progress(progress);
    });
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
    // Opens that began before this page was there (a file named at start-up, a reload) show
    // at once with the rows read so far, instead of at their next progress or preview; after
    // a break in serve mode's event stream, opens that ended meanwhile end here too, and run
    // and trends tabs still opening catch up with what main said meanwhile. A failed ask
    // changes nothing: the stream's next connection asks again.
    const syncOpensNow = opensSyncInTurn(host.api, (openId) =>
      useRunStore.getState().ownsOpen(openId),
    );
    const sync = () => {
      void syncOpensNow();
      void syncRuns(host).catch(() => {});
      void syncTrends(host.api).catch(() => {});
    };
    sync();
    const offConnected = host.onEventsConnected(sync);
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
      offConnected();
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
      } else if ((event.ctrlKey || event.metaKey) && event.altKey && event.code === 'KeyC') {
        // serve mode's Copy Picture (Electron's menu has the accelerator); code, not key: Alt
        // changes the character on a Mac
        event.preventDefault();
        runCommand('copy-picture');
      } else if (!typing && event.key === '?') {
        setShowShortcuts(true);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [runCommand]);

  return (
    <DropZone>
      <div className="app">
        <TopBar onShortcuts={() => setShowShortcuts(true)} />
        <ErrorBanner />
        <main className="workspace">
          {workspaceView ? (
            <workspaceView.component file={active} />
          ) : active ? (
            <FilePage file={active} key={active.fileId} />
          ) : (
            <EmptyState />
          )}
        </main>
      </div>
      {showShortcuts && (
        <ShortcutsDialog onClose={() => setShowShortcuts(false)} opens={host.kind !== 'report'} />
      )}
    </DropZone>
  );
}
