#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { UsageError, runCommand } from './cli/run-command';
import { workerRangeReader } from './ingest/worker-range-reader';
import { terminalText } from './core/bytes/terminal-text';
import { capHeapGrowth } from './ingest/heap-growth';

capHeapGrowth();

// Headless commands of Trace Explorer; the same binary serves the UI (`serve`).
// A reader that stops early (`| head`) is not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});
runCommand(process.argv.slice(2), parseArgs, { partReader: workerRangeReader }).then(
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
);
