export interface MarkerCluster {
  x: number;
  count: number;
  /** item indexes in the cluster */
  members: number[];
}

/** Markers closer than `minGapPx` merge into one numbered cluster (input sorted by x). */
export function clusterMarkers(
  points: { x: number; index: number }[],
  minGapPx = 4,
): MarkerCluster[] {
  const clusters: MarkerCluster[] = [];
  for (const p of points) {
    const last = clusters[clusters.length - 1];
    if (last && p.x - last.x < minGapPx) {
      last.members.push(p.index);
      last.count++;
    } else {
      clusters.push({ x: p.x, count: 1, members: [p.index] });
    }
  }
  return clusters;
}
