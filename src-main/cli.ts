#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { runCommand } from './cli/run-command';

// Headless commands of Trace Explorer; the same binary serves the UI (`serve`).
runCommand(process.argv.slice(2), parseArgs).then(
  (code) => {
    if (code !== null) process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(
      `trace-explorer: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exitCode = 1;
  },
);
