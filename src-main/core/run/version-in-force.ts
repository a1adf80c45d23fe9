import type { RunVersionSync } from '../model/run';

/** The weight version in force at `sec`: the newest whose sync completed before it. */
export function versionInForce(syncs: RunVersionSync[], sec: number): number | null {
  let version: number | null = null;
  for (const sync of syncs) {
    if (sync.completeSec !== null && sync.completeSec <= sec) {
      version = version === null ? sync.weightVersion : Math.max(version, sync.weightVersion);
    }
  }
  return version;
}
