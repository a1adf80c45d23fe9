import type { LaneGroup } from '../../src-renderer/timeline/lane-group';
import type { GpuProfileLanes } from '../../src-renderer/run/run-lanes';
import { runLaneGroups } from '../../src-renderer/run/run-lanes';

/** The run tab's lane group of one GPU profile, in a run of nothing else. */
export function gpuLaneGroupOf(gpu: GpuProfileLanes): LaneGroup {
  const groups = runLaneGroups({
    trainer: [],
    samples: [],
    views: new Map(),
    serverViews: new Map(),
    linksBySample: new Map(),
    opened: new Set(),
    gpu: [gpu],
  });
  return groups[groups.length - 1];
}
