#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { terminalText } from './core/bytes/terminal-text';
import { capHeapGrowth } from './ingest/heap-growth';
import { prestartIngestWorker } from './ingest/ingest-client';
import { servesUi } from './cli/command-word';

capHeapGrowth();

// Serving the UI, a file's worker starts before the commands' code is loaded (imported below,
// not above): it loads its own code meanwhile, on another core, and the file named on the
// command line takes it (ingest-client.ts; the first rows come that much sooner).
const argv = process.argv.slice(2);
if (servesUi(argv)) prestartIngestWorker();

// Headless commands of Trace Explorer; the same binary serves the UI (`serve`).
// A reader that stops early (`| head`) is not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});
void Promise.all([import('./cli/run-command'), import('./ingest/worker-range-reader')]).then(
  ([{ runCommand, UsageError }, { workerRangeReader }]) =>
    runCommand(argv, parseArgs, { partReader: workerRangeReader }).then(
      (code) => {
        if (code !== null) process.exitCode = code;
      },
      (error: unknown) => {
        const usage = error instanceof UsageError;
        const message = error instanceof Error ? error.message : String(error);
        process.stderr.write(
          `trace-explorer: ${terminalText(message)}${usage ? "\nRun 'trace-explorer --help' for the commands." : ''}\n`,
        );
        process.exitCode = usage ? 2 : 1;
      },
    ),
);
