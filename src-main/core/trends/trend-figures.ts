import type { PerfView } from '../api/trace-api';
import type { SampleFacts, TraceSamples } from '../model/sample-facts';
import type { RowFields } from '../model/row';
import type { TrendPoint } from '../model/trend';
import { numpySum } from '../rows/perf-summary';

/** What the figures are computed from: an opened dump's rows, sample facts and perf view. */
export interface TrendInput {
  path: string;
  name: string;
  rolloutId: unknown;
  rows: readonly RowFields[];
  samples: Pick<TraceSamples, 'count' | 'facts'>;
  perf: PerfView;
}

/** The figures of one rollout for the trends view and `trace-explorer trends`. */
export function trendFigures(input: TrendInput): TrendPoint {
  const figures: Record<string, number> = { ...input.perf.perf };
  const e2e = input.perf.series.find((s) => s.key === 'e2e latency')?.values ?? [];
  if (e2e.length > 0) figures['perf/request/e2e_latency/p90'] = percentile(Array.from(e2e), 90);
  figures['rollout/samples'] = input.samples.count;
  if (input.rows.length > 0) {
    // this rollout's own window: a resumed sample's earlier attempts ran in an earlier rollout
    figures['rollout/wall_time_sec'] = input.perf.rollout.own.durationSec;
    figures['rollout/viewer_span_sec'] = input.perf.rollout.whole.durationSec;
    const { stragglers, resumed, breakdownWhole } = input.perf.rollout;
    if (stragglers) {
      // the straggler tail: how long the last samples alone kept the rollout open
      figures['rollout/straggler_tail_sec'] = stragglers.tailSec;
      figures['rollout/straggler_tail_share_pct'] = 100 * stragglers.wallShare;
    }
    figures['rollout/resumed_samples'] = resumed.length;
    figures['rollout/idle_between_attempts_sec'] = breakdownWhole.seconds['idle between attempts'];
  }
  Object.assign(figures, sampleFigures(input.samples.facts));
  return {
    path: input.path,
    name: input.name,
    series: /(^|_)eval_\d+/.test(input.name) ? 'eval' : 'rollout',
    rolloutId: rolloutIdOf(input.rolloutId, input.name),
    figures,
  };
}

/** Rewards, response lengths, statuses and GRPO groups, read from the samples' facts. */
function sampleFigures(facts: readonly (SampleFacts | null)[]): Record<string, number> {
  const rewards: number[] = [];
  const lengths: number[] = [];
  const statuses: Record<string, number> = { aborted: 0, truncated: 0 };
  const groups = new Map<string, number[]>();
  for (const sample of facts) {
    if (sample === null) continue;
    const { reward, groupIndex, responseLength, status } = sample;
    if (reward !== null) {
      rewards.push(reward);
      if (groupIndex !== null) {
        // 3 and '3' are one group
        const key = String(groupIndex);
        const list = groups.get(key);
        if (list) list.push(reward);
        else groups.set(key, [reward]);
      }
    }
    if (responseLength !== null) lengths.push(responseLength);
    if (status !== null) statuses[status] = (statuses[status] ?? 0) + 1;
  }
  const figures: Record<string, number> = {};
  if (rewards.length > 0) {
    const mean = numpySum(rewards) / rewards.length;
    figures['reward/mean'] = mean;
    // numpy's std (ddof 0): the spread GRPO normalises by
    figures['reward/std'] = Math.sqrt(
      numpySum(rewards.map((r) => (r - mean) ** 2)) / rewards.length,
    );
  }
  if (lengths.length > 0) figures['response_length/mean'] = numpySum(lengths) / lengths.length;
  for (const [status, count] of Object.entries(statuses)) figures[`status/${status}`] = count;
  let zeroVariance = 0;
  for (const rewardsOfGroup of groups.values()) {
    if (rewardsOfGroup.length > 1 && rewardsOfGroup.every((r) => r === rewardsOfGroup[0]))
      zeroVariance++;
  }
  figures['groups/count'] = groups.size;
  // a group whose samples all got one reward gives GRPO no learning signal
  figures['groups/zero_variance'] = zeroVariance;
  return figures;
}

/** numpy.percentile's default (linear interpolation between the closest ranks). */
export function percentile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const position = ((sorted.length - 1) * q) / 100;
  const low = Math.floor(position);
  const high = Math.ceil(position);
  return sorted[low] + (sorted[high] - sorted[low]) * (position - low);
}

function rolloutIdOf(rolloutId: unknown, name: string): number | null {
  if (typeof rolloutId === 'number' && Number.isFinite(rolloutId)) return rolloutId;
  if (typeof rolloutId === 'bigint') return Number(rolloutId);
  const digits = /(\d+)(?!.*\d)/.exec(name);
  return digits ? Number(digits[1]) : null;
}

/** The unit a trend figure is in, from its key (s, tok/s, GB/s, MB; '' for counts). */
export function trendUnit(key: string): string {
  if (/throughput/.test(key)) return 'tok/s';
  if (/speed_gb_s/.test(key)) return 'GB/s';
  if (/total_mb/.test(key)) return 'MB';
  if (/_pct$/.test(key)) return '%';
  if (
    /retry_count|^status\/|^groups\/|^rollout\/samples|^rollout\/resumed_samples|^reward\/|^response_length\//.test(
      key,
    )
  ) {
    return /^response_length\//.test(key) ? 'tokens' : '';
  }
  if (/(_sec|latency|queue_time|duration)(\/|$)/.test(key)) return 's';
  return '';
}
