export interface MarkerCluster {
  /** where the cluster is drawn: the middle of its members */
  x: number;
  /** its first and last member's x (a cluster on the marker rail spans them) */
  x0: number;
  x1: number;
  count: number;
  /** item indexes in the cluster */
  members: number[];
}

/**
 * The width of a numbered cluster badge, and so the least gap between two markers drawn apart:
 * badges closer than it overlapped into a black strip of "2"s and "4"s.
 */
export const CLUSTER_GAP_PX = 14;

/**
 * Markers closer than `minGapPx` to the previous one merge into one numbered cluster (input
 * sorted by x). A cluster is drawn at the middle of its members, so two clusters' marks are at
 * least `minGapPx` apart and never overlap.
 */
export function clusterMarkers(
  points: { x: number; index: number }[],
  minGapPx = CLUSTER_GAP_PX,
): MarkerCluster[] {
  const clusters: MarkerCluster[] = [];
  for (const p of points) {
    const last = clusters[clusters.length - 1];
    if (last && p.x - last.x1 < minGapPx) {
      last.members.push(p.index);
      last.count++;
      last.x1 = p.x;
      last.x = (last.x0 + last.x1) / 2;
    } else {
      clusters.push({ x: p.x, x0: p.x, x1: p.x, count: 1, members: [p.index] });
    }
  }
  return clusters;
}
