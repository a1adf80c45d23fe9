import type { GroupFigures } from './rollout-figures';

/** How much longer a group ran than its median sample: 1 = no straggler. */
export function wallVsMedian(group: Pick<GroupFigures, 'wallSec' | 'medianSampleSec'>): number {
  return group.medianSampleSec > 0 ? group.wallSec / group.medianSampleSec : 1;
}
