import { sep } from 'node:path';
import { FORMATS, type FormatList } from '../core/formats/registry';
import {
  holdsJoinRecords,
  holdsRolloutSamples,
  holdsTrainerTimeline,
} from '../core/formats/registry';
import type { RunFileDigest } from '../core/model/run';
import type { TrendsResult } from '../core/model/trend';
import { buildRunJoins } from '../core/run/build-run-joins';
import { withRunExtra } from '../core/run/trend-run-extra';
import { findRunFiles } from '../ingest/run-files';
import { sniffPath } from '../ingest/sniff-path';

/** What a run's file gives its trends: a dump's samples, records joined to them, the trainer's versions. */
export type FigureRole = 'dump' | 'records' | 'timeline';

/** One trace of the run (a file, or a rotated set) its trends' figures come from. */
export interface FigureFile {
  group: string[];
  role: FigureRole;
}

/**
 * The run's files each rollout's extra figures (mismatch, staleness, tokens per DP rank, request
 * metrics) come from, in the run's file order, when `paths` hold a train dump or a request
 * metrics log; null otherwise (its trends are the dumps' own). An SGLang trace or a GPU profile
 * changes none of those figures, and can be the run's largest file: it is not among them.
 */
export function runFigureFiles(
  paths: string[],
  formats: FormatList = FORMATS,
): FigureFile[] | null {
  const found = findRunFiles(paths);
  const files: FigureFile[] = [];
  for (const group of found.groups) {
    const role = roleOf(group[0], formats);
    if (role !== null) files.push({ group, role });
  }
  return files.some((f) => f.role === 'records') ? files : null;
}

function roleOf(path: string, formats: FormatList): FigureRole | null {
  const format = sniffPath(path);
  if (typeof format !== 'string') return null;
  if (holdsJoinRecords(format, formats)) return 'records';
  if (holdsRolloutSamples(format, formats)) return 'dump';
  return holdsTrainerTimeline(format, formats) ? 'timeline' : null;
}

/**
 * The trends with each rollout's run figures, from the digests of `files` (null where a file
 * could not be read: it is in `incomplete`, the others still join), joined as `summary RUN`
 * joins them; the one end of `trends RUN` and the app's trends view. The files read for the
 * figures, and the folders they are in, are not said to be skipped: only what was read for
 * nothing is.
 */
export function joinRunFigures(
  result: TrendsResult,
  files: readonly FigureFile[],
  digests: readonly (RunFileDigest | null)[],
  incomplete: TrendsResult['incomplete'],
): TrendsResult {
  // a file read, or a folder holding one (the trends list a run's subfolders as not opened:
  // its train/ and metrics folders are where those files are)
  const read = files.flatMap((f) => f.group);
  const used = (path: string) =>
    read.some((file) => file === path || file.startsWith(path.endsWith(sep) ? path : path + sep));
  // in the run's file order, as `summary RUN` joins them (file indexes name these paths)
  const opened = files.filter((_, k) => digests[k] !== null);
  const joins = buildRunJoins(digests.filter((d) => d !== null));
  return withRunExtra(
    {
      ...result,
      incomplete: [...result.incomplete, ...incomplete],
      skipped: result.skipped.filter((s) => !used(s.path)),
    },
    joins,
    (file) => opened[file].group[0],
  );
}
