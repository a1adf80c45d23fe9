// Opens a dump in the built ingest worker and samples the main thread's event-loop delay
// meanwhile: the UI (Electron main, serve mode) must stay responsive while a file parses.
import { Worker } from 'node:worker_threads';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const chunks = join(root, 'out/main/chunks');
const workerFile = readdirSync(chunks).find((f) => f.startsWith('ingest-worker'));
const histogram = monitorEventLoopDelay({ resolution: 10 });
histogram.enable();
const started = performance.now();
let progress = 0;
const worker = new Worker(join(chunks, workerFile), { workerData: { sources: [{ kind: 'path', path: process.argv[2] }] } });
worker.on('message', (message) => {
  if (message.type === 'progress') progress++;
  if (message.type === 'failed') {
    console.log(`the worker could not open ${process.argv[2]}: ${JSON.stringify(message.error)}`);
    process.exitCode = 1;
    void worker.terminate();
    return;
  }
  if (message.type === 'done') {
    histogram.disable();
    const ms = (ns) => (ns / 1e6).toFixed(1);
    console.log(
      `opened in ${((performance.now() - started) / 1000).toFixed(2)} s with ${progress} progress messages; ` +
        `main-thread event-loop delay p50 ${ms(histogram.percentile(50))} ms, p99 ${ms(histogram.percentile(99))} ms, max ${ms(histogram.max)} ms (goal < 50 ms)`,
    );
    void worker.terminate();
  }
});
