import type { FormatCapabilities } from '../../src-main/core/model/file-format';
import type { StragglerAttribution } from '../../src-main/core/model/rollout-figures';
import { rowNouns, stragglerSentence } from '../../src-main/core/model/straggler-sentence';

export interface PerfWords {
  /** the count card's label: what the file's rows are */
  rows: string;
  /** what runs in "… running over time" (plural) */
  running: string;
  /** the running chart's heading */
  runningTitle: string;
  /** the wall-time card's label */
  wall: string;
  /** show the requests card: the file counts requests (slime's perf keys, per-request series) */
  requests: boolean;
  /** "What kept the rollout open" (a trace: the trace) */
  keptOpen: string;
  /** the straggler sentence in the file's words */
  stragglers(figures: StragglerAttribution): string;
}

/**
 * The perf view's words for what the file has (capabilities), so a trace file's page does not
 * speak of samples, rollouts or requests it has none of ("0 requests · rollout wall time").
 */
export function perfWords(capabilities: FormatCapabilities, requests: number): PerfWords {
  const samples = capabilities.samples;
  return {
    rows: samples ? 'samples with a trace' : 'rows',
    running: samples ? 'samples' : 'rows',
    runningTitle: samples ? 'Samples running over time' : 'Rows running over time',
    wall: samples ? 'rollout wall time' : 'wall time',
    requests: requests > 0,
    keptOpen: `What kept the ${samples ? 'rollout' : 'trace'} open`,
    stragglers: (figures) => stragglerSentence(figures, rowNouns(capabilities)),
  };
}
