import { app, BrowserWindow } from 'electron';
import { join, resolve } from 'node:path';
import { TraceService } from './api/trace-service';
import { ingestInWorker } from './ingest/ingest-client';
import { routeTraceApi } from './ipc/trace-router';
import { createMainWindow } from './window';
import { groupRotatedSets } from './ingest/group-files';
import { parseLaunchArgs } from './launch-args';

// Electron entry: thin on purpose. Everything it wires runs under plain Node in serve mode.
const launch = parseLaunchArgs(process.argv.slice(app.isPackaged ? 1 : 2));

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.enableSandbox();
  const service = new TraceService(ingestInWorker);
  let window: BrowserWindow | null = null;

  app.on('second-instance', (_event, argv) => {
    const files = parseLaunchArgs(argv.slice(app.isPackaged ? 1 : 2)).files;
    if (files.length > 0) void service.openInitial(groupRotatedSets(files), false);
    if (window) {
      if (window.isMinimized()) window.restore();
      window.focus();
    }
  });

  void app.whenReady().then(() => {
    window = createMainWindow({ width: 1400, height: 880 });
    routeTraceApi(service, window);
    const files = launch.files.length > 0 ? launch.files : [demoRolloutPath()];
    void service.openInitial(groupRotatedSets(files), launch.compare);
  });

  app.on('window-all-closed', () => app.quit());
}

function demoRolloutPath(): string {
  return app.isPackaged
    ? join(process.resourcesPath, 'demo', 'rollout_demo.pt')
    : resolve(__dirname, '../../resources/demo/rollout_demo.pt');
}
