import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { TraceService } from '../api/trace-service';
import { ingestInWorker } from '../ingest/ingest-client';
import { startServeMode, type ServeHandle } from './serve-mode';
import { groupRotatedSets } from '../ingest/group-files';

export interface RunServeOptions {
  files: string[];
  compare: boolean;
  port?: number;
  token?: string;
}

/** Serve mode as a user starts it: open the files in workers, serve the renderer, print the URL. */
export async function runServe(options: RunServeOptions): Promise<ServeHandle> {
  const service = new TraceService(ingestInWorker);
  const handle = await startServeMode({
    api: service,
    rendererDir: builtRendererDir(),
    port: options.port,
    token: options.token,
  });
  void service.openInitial(groupRotatedSets(options.files), options.compare);
  return handle;
}

/** out/renderer, from wherever the bundler put this chunk (out/main or out/main/chunks). */
function builtRendererDir(): string {
  for (const candidate of [join(__dirname, '../renderer'), join(__dirname, '../../renderer')]) {
    if (existsSync(join(candidate, 'index.html'))) return candidate;
  }
  throw new Error('the renderer is not built: run npm run build');
}
