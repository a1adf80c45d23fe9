/**
 * `report FILE [B] [-o OUT] [--with-content]`: one HTML file a colleague opens by double-click,
 * offline (issue 47). Each named trace is opened here, its snapshot taken from the worker's own
 * file calls (ingest/file-calls.ts) and compared (two files) as `compare` does; the page is the
 * renderer's report build with the snapshot inside (src-main/report/report-html.ts).
 */
import { writeFileSync } from 'node:fs';
import { basename, dirname, relative, resolve } from 'node:path';
import type { OpenedTrace } from '../core/open/opened-trace';
import { fileCalls } from '../ingest/file-calls';
import { groupPaths } from '../ingest/group-files';
import { findRunFiles } from '../ingest/run-files';
import { buildReportSnapshot, type ReportFile } from '../core/report/build-report-snapshot';
import { encodeReport } from '../report/encode-report';
import { readReportPage, reportHtml, reportNames } from '../report/report-html';

export interface ReportCommand {
  paths: string[];
  output: string | undefined;
  withContent: boolean;
}

/**
 * Writes the report; `open` opens one trace (its group of paths) as the other commands do, and
 * `usage` makes a usage error. A folder reports every trace it holds, each as a tab; a run
 * folder (a trainer timeline, or traces of several kinds) as the app's run tab too.
 */
export function runReport(
  command: ReportCommand,
  open: (group: string[]) => OpenedTrace,
  usage: (message: string) => Error,
): number {
  if (command.paths.length === 0 || command.paths.length > 2) {
    throw usage(
      `report takes one FILE or folder, or two files A B (${command.paths.length} given)`,
    );
  }
  const paths = command.paths.map((p) => resolve(p));
  // one folder (or file) that is a run: its files joined, shown as the app's run tab
  const found = paths.length === 1 ? findRunFiles(paths) : null;
  const run = found?.isRun
    ? { name: basename(paths[0]), skipped: found.skipped, groups: found.groups }
    : null;
  const groups = run ? run.groups : paths.flatMap((p) => traceGroups(p));
  const page = readReportPage();
  const files: ReportFile[] = groups.map((group) => {
    const trace = open(group);
    const calls = fileCalls(
      trace,
      group.map((path) => ({ kind: 'path' as const, path })),
    );
    return { summary: { ...trace.summary, fileId: group[0], path: group[0] }, calls };
  });
  const compare = command.paths.length === 2;
  const parts = buildReportSnapshot(files, {
    withContent: command.withContent,
    compare,
    madeAt: new Date(),
    ...(run
      ? {
          run: {
            name: run.name,
            skipped: run.skipped,
            paths: groups.map((group) => relative(dirname(paths[0]), group[0])),
          },
        }
      : {}),
  });
  const { title } = reportNames(run ? [run.name] : files.map((f) => f.summary.name), compare);
  const html = reportHtml(page, encodeReport(parts), title);
  const output = command.output ?? 'report.html';
  writeFileSync(output, html);
  const content = command.withContent
    ? 'prompts and responses included'
    : 'prompts, responses, labels and tool arguments left out';
  process.stdout.write(
    `Wrote ${output} (${(Buffer.byteLength(html) / 1e6).toFixed(1)} MB; ${content}). Open it in a browser.\n`,
  );
  return 0;
}

function traceGroups(path: string): string[][] {
  const { groups, emptyFolders } = groupPaths([path]);
  if (emptyFolders.length > 0 || groups.length === 0) {
    throw new Error(`${path}: the folder holds no trace file [io/empty-folder]`);
  }
  return groups;
}
