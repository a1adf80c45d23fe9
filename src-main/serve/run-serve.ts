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
    rendererDir: join(__dirname, '../renderer'),
    port: options.port,
    token: options.token,
  });
  void service.openInitial(groupRotatedSets(options.files), options.compare);
  return handle;
}
