import { sqlInWorker } from '../sql/sql-client';
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { TraceService } from '../api/trace-service';
import { ingestInPool } from '../ingest/ingest-client';
import { MAX_UPLOAD_BYTES, startServeMode, type ServeHandle } from './serve-mode';
import { UploadStore } from './upload-store';
import { groupPaths, MAX_FOLDER_TABS, withRotatedSiblings } from '../ingest/group-files';
import { namedPathsPolicy } from '../api/path-policy';
import { computeTrends } from '../trends/compute-trends';
import { defaultCacheDir } from '../trends/cache-dir';
import { terminalText } from '../core/bytes/terminal-text';
import { startMark } from '../ingest/start-marks';

export interface RunServeOptions {
  files: string[];
  compare: boolean;
  port?: number;
  token?: string;
  /** folders whose files may be opened by path too (`--root DIR`), beside the named files */
  roots?: string[];
  /** the most bytes of dropped files held at a time, so the largest one (MAX_UPLOAD_BYTES) */
  maxUploadBytes?: number;
  /** where to say what was opened, skipped or failed (the terminal) */
  log?: (line: string) => void;
}

/** Serve mode as a user starts it: open the files in workers, serve the renderer, print the URL. */
export async function runServe(options: RunServeOptions): Promise<ServeHandle> {
  startMark('process-start', performance.timeOrigin);
  startMark('serve-start');
  // paths, reasons and error messages come from files and their names: escaped for a terminal
  const log = options.log ?? ((line: string) => process.stderr.write(`${terminalText(line)}\n`));
  const paths = groupPaths(options.files, {
    trendFolders: true,
    runs: !options.compare,
    maxTraces: MAX_FOLDER_TABS,
  });
  // what a client may open by path: the named files (each rotated set whole) and folders
  // and the bundled demo, which the start page opens by path
  const demoPath = bundledDemoPath();
  const policy = namedPathsPolicy(
    [
      ...options.files.flatMap(withRotatedSiblings),
      ...paths.groups.flat(),
      ...paths.runs.flat(),
      ...(demoPath ? [demoPath] : []),
    ],
    [...(options.roots ?? [])],
  );
  // the transport receives dropped files' bytes, the service takes them when an open names them
  const uploads = new UploadStore(options.maxUploadBytes ?? MAX_UPLOAD_BYTES);
  const service = new TraceService(
    ingestInPool(),
    { run: computeTrends, cacheDir: defaultCacheDir() },
    policy,
    uploads,
    sqlInWorker,
  );
  // recent files are the page's own (localStorage): a browser may be another user's
  service.setStartPage({ demoPath, recent: () => [] });
  const handle = await startServeMode({
    api: service,
    rendererDir: builtRendererDir(),
    port: options.port,
    token: options.token,
    uploads,
  });
  startMark('listening');
  for (const run of paths.runs) log(`opening ${run.map(shortPath).join(' + ')} as one run`);
  for (const folder of paths.trendFolders)
    log(`opening the rollout dumps of ${shortPath(folder)} as trends`);
  // a named folder: say which of its files open, and why the others do not
  if (paths.groups.some((group) => !options.files.includes(group[0]))) {
    for (const group of paths.groups) log(`opening ${group.map(shortPath).join(' + ')}`);
  }
  for (const { path, reason } of paths.skipped) log(`skipped ${shortPath(path)}: ${reason}`);
  void service.openInitial(paths, options.compare).then(({ errors }) => {
    for (const error of errors) {
      log(`could not open ${error.fileName}: ${error.message} [${error.code}]`);
    }
  });
  return handle;
}

function shortPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel && !rel.startsWith('..') ? rel : path;
}

/** out/renderer, from wherever the bundler put this chunk (out/main or out/main/chunks). */
/** resources/demo beside the built out/ (a checkout, or the npm package, which ships both) */
function bundledDemoPath(): string | null {
  for (const up of ['../..', '../../..']) {
    const path = join(__dirname, up, 'resources/demo/rollout_demo.pt');
    if (existsSync(path)) return path;
  }
  return null;
}

function builtRendererDir(): string {
  for (const candidate of [join(__dirname, '../renderer'), join(__dirname, '../../renderer')]) {
    if (existsSync(join(candidate, 'index.html'))) return candidate;
  }
  throw new Error('the renderer is not built: run npm run build');
}
