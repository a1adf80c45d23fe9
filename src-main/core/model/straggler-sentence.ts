import type { FormatCapabilities } from './file-format';
import type { StragglerAttribution } from './rollout-figures';

/** What a file's rows are, in the sentence: a rollout's samples, or a trace's rows. */
export interface RowNouns {
  one: string;
  many: string;
  /** what the rows keep open */
  whole: string;
}

export const SAMPLE_NOUNS: RowNouns = { one: 'sample', many: 'samples', whole: 'rollout' };
export const ROW_NOUNS: RowNouns = { one: 'row', many: 'rows', whole: 'trace' };

/**
 * A file's nouns by what it can do: a rollout's samples (capabilities.samples), else a trace's
 * rows. The perf view and the CLI's summary both word the sentence by this, never by format.
 */
export function rowNouns(capabilities: Pick<FormatCapabilities, 'samples'>): RowNouns {
  return capabilities.samples ? SAMPLE_NOUNS : ROW_NOUNS;
}

/**
 * "the last 3 samples (12.5%) kept the rollout open for 21.4% of its own wall time (12.5 of
 * 58.3 s)": one wording for the summary, compare and the perf view; a file whose rows are not
 * samples (capabilities.samples) says rows and trace.
 */
export function stragglerSentence(
  figures: Omit<StragglerAttribution, 'sentence' | 'rowIds'>,
  nouns: RowNouns = SAMPLE_NOUNS,
): string {
  const k = figures.sampleCount;
  const pct = (share: number) => `${(share * 100).toFixed(1)}%`;
  return (
    `the last ${k} ${k === 1 ? nouns.one : nouns.many} (${pct(figures.sampleShare)}) kept the ` +
    `${nouns.whole} open for ${pct(figures.wallShare)} of its ` +
    `${figures.window.kind === 'own' ? 'own ' : ''}wall time ` +
    `(${figures.tailSec.toFixed(1)} of ${figures.window.durationSec.toFixed(1)} s)`
  );
}
