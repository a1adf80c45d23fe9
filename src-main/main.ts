import { sqlInWorker } from './sql/sql-client';
import { app, dialog, Menu, type BrowserWindow } from 'electron';
import { join, resolve } from 'node:path';
import { TraceService } from './api/trace-service';
import { ingestInPool, prestartIngestWorker } from './ingest/ingest-client';
import { routeTraceApi } from './ipc/trace-router';
import { createMainWindow } from './window';
import { groupPaths, MAX_FOLDER_TABS } from './ingest/group-files';
import { computeTrends } from './trends/compute-trends';
import { parseLaunchArgs } from './launch-args';
import { RecentFiles } from './desktop/recent-files';
import { loadWindowBounds, saveWindowBounds } from './desktop/window-state';
import { buildAppMenu } from './desktop/app-menu';
import { capHeapGrowth } from './ingest/heap-growth';

capHeapGrowth();

// Electron entry: thin on purpose. Everything it wires runs under plain Node in serve mode.
const argvOffset = app.isPackaged ? 1 : 2;
const launch = parseLaunchArgs(process.argv.slice(argvOffset));
const pendingOpenFiles: string[] = [];

// macOS hands files to a running app (or one still starting) through open-file.
app.on('open-file', (event, path) => {
  event.preventDefault();
  if (app.isReady()) void openPaths([path], false);
  else pendingOpenFiles.push(path);
});

let service: TraceService;
let recent: RecentFiles;
let window: BrowserWindow | null = null;

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.enableSandbox();
  // a file named at launch: its worker loads its code while the window starts
  if (launch.files.length > 0) prestartIngestWorker();
  // the app's data folder keeps each dump's trend figures, so a run reopens in under a second
  service = new TraceService(
    ingestInPool(),
    { run: computeTrends, cacheDir: join(app.getPath('userData'), 'trends-cache') },
    null,
    null,
    sqlInWorker,
  );

  // A second launch with files (Windows/Linux) opens them in this window.
  app.on('second-instance', (_event, argv) => {
    const files = parseLaunchArgs(argv.slice(argvOffset)).files;
    if (files.length > 0) void openPaths(files, false);
    if (window) {
      if (window.isMinimized()) window.restore();
      window.focus();
    }
  });

  void app.whenReady().then(() => {
    const userData = app.getPath('userData');
    recent = new RecentFiles(userData);
    service.setStartPage({ demoPath: demoRolloutPath(), recent: () => recent.list() });
    const bounds = loadWindowBounds(userData);
    window = createMainWindow(bounds);
    if (bounds.maximized) window.maximize();
    window.on('close', () => {
      if (!window) return;
      saveWindowBounds(userData, { ...window.getNormalBounds(), maximized: window.isMaximized() });
    });
    routeTraceApi(service, window);
    refreshMenu();
    const files = [...launch.files, ...pendingOpenFiles];
    for (const file of files) recent.add(file);
    void service.openInitial(
      groupPaths(files.length > 0 ? files : [demoRolloutPath()], {
        trendFolders: true,
        // two files to compare stay two files, whatever they are
        runs: !launch.compare,
        maxTraces: MAX_FOLDER_TABS,
      }),
      launch.compare,
    );
  });

  app.on('window-all-closed', () => app.quit());
}

async function openPaths(paths: string[], compare: boolean): Promise<void> {
  for (const path of paths) recent.add(path);
  refreshMenu();
  await service.openLater(
    groupPaths(paths, { trendFolders: true, runs: !compare, maxTraces: MAX_FOLDER_TABS }),
    compare,
  );
}

function refreshMenu(): void {
  Menu.setApplicationMenu(
    buildAppMenu(recent.list(), {
      openDialog: () => void showOpenDialog(),
      openRecent: (path) => void openPaths([path], false),
      clearRecent: () => {
        recent.clear();
        refreshMenu();
      },
      command: (command) => service.emitHostEvent({ type: 'command', command }),
    }),
  );
}

async function showOpenDialog(): Promise<void> {
  if (!window) return;
  const result = await dialog.showOpenDialog(window, {
    title: 'Open rollout dumps or traces',
    properties: ['openFile', 'multiSelections'],
    filters: [
      { name: 'Rollout dumps and traces', extensions: ['pt', 'pth', 'jsonl', 'json', 'gz'] },
      { name: 'All files', extensions: ['*'] },
    ],
  });
  if (!result.canceled && result.filePaths.length > 0) await openPaths(result.filePaths, false);
}

function demoRolloutPath(): string {
  return app.isPackaged
    ? join(process.resourcesPath, 'demo', 'rollout_demo.pt')
    : resolve(__dirname, '../../resources/demo/rollout_demo.pt');
}
