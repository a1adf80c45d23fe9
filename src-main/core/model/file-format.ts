/**
 * What a file's format lets the explorer do, and what it calls things: the only knowledge of a
 * format that leaves core/formats. The UI and the CLI ask these, never which format a file is
 * (docs/ARCHITECTURE.md). Each format's descriptor (core/formats/<id>/descriptor.ts) says them.
 */
export interface FormatCapabilities {
  /** each row is a sample of the file whose fields `getSample` answers with */
  samples: boolean;
  /** token-sized sample fields stay byte ranges, re-read on request (`getLazyValues`) */
  lazyValues: boolean;
  /** per-request perf series (histograms) beside the perf summary */
  perfSeries: boolean;
  /** a file may be one of a set of siblings opened together (rotated files), oldest first */
  sourceGroups: boolean;
  /**
   * rows are trainer processes whose items are trainer operations (weight syncs per bucket,
   * training phases) with `weight_version`, `global_step`, `rollout_id`: a run's trainer lanes
   */
  trainerTimeline?: boolean;
  /**
   * the samples are records a run joins to a rollout dump's samples (a train dump's samples, a
   * server's request records): they are no rollout of their own (trends, run open order)
   */
  joinRecords?: boolean;
  /**
   * rows are the ranks of a GPU profile (CPU threads and GPU streams as lanes) and the summary
   * carries `gpuProfile`: HTA's breakdown, overlap, kernel types, idle gaps per rank
   */
  gpuProfile?: boolean;
  /**
   * a row's `label` is its name (a trace's request or root span, e.g. `decode Req 5e0f…`): the
   * row label shows it beside the source; else `label` is sample data (slime's ground truth)
   */
  namedRows?: boolean;
  /** what rows carry, for filters, columns and counts */
  facets: {
    /** samples without a trace are counted (they have no row) */
    untraced: boolean;
    /** rows have a retry attempt */
    attempts: boolean;
    /** rows have a group index */
    groups: boolean;
    /** rows have a reward to filter and sort by */
    rewards: boolean;
    /** PD (prefill/decode) lanes and phases */
    pd: boolean;
  };
}

/** A format's words for people: display text only, never a key to branch on. */
export interface FormatLabels {
  /** e.g. "slime rollout dump" (`summary`'s format line) */
  name: string;
  /** a short badge for a file tab, e.g. "PT" */
  short: string;
  /** one file of it in a sentence, e.g. "slime dump" ("cannot compare a slime dump with ...") */
  noun: string;
  /** what an unreadable file was expected to be, e.g. "a slime rollout dump (.pt)" */
  expected: string;
  /** what the file's `samples` count counts, e.g. "samples" or "traces" */
  samples: string;
  /** what a row's `source` is, e.g. "source" or "service" */
  source: string;
  /** what free-text search looks at */
  search: string;
}

export interface SkippedLines {
  count: number;
  /** the first few, e.g. "line 2 not JSON" */
  examples: { line: number; reason: string }[];
}
