import type { RunResult } from '../../src-main/core/api/trace-api';
import { formatOffset } from './run-lanes';
import { gpuRankClocks } from './run-gpu';

/**
 * Which clock each GPU profile's ranks are on: the epoch clock (baseTimeNanoseconds placed
 * them under the samples), or their own, placed by hand: an offset field in milliseconds from
 * the run's start (the group's title drags it too).
 */
export function RunGpuClocks(props: {
  result: RunResult;
  offsets: ReadonlyMap<number, number>;
  onOffset(file: number, sec: number): void;
  /** the profiles whose ranks are in the timeline already (fetched) */
  drawn: (file: number) => boolean;
  /** scroll the timeline to the profile's ranks (under the samples, which may be many) */
  onShow(file: number): void;
}) {
  const profiles = props.result.files
    .map((entry, file) => ({ entry, file }))
    .filter(({ entry }) => entry.role === 'gpu');
  if (profiles.length === 0) return null;
  return (
    <div className="run-gpu-clocks" data-testid="run-gpu-clocks">
      {profiles.map(({ entry, file }) => {
        const ranks = gpuRankClocks(entry.file);
        const own = ranks.filter((r) => r.clock === 'own');
        const offset = props.offsets.get(file) ?? 0;
        return (
          <span key={file} className="run-gpu-clock" data-testid="run-gpu-clock" data-file={file}>
            <button
              type="button"
              className="run-link-button"
              data-testid="run-gpu-show"
              title="Show its ranks in the timeline"
              disabled={!props.drawn(file)}
              onClick={() => props.onShow(file)}
            >
              GPU {entry.file.name}
            </button>
            :{' '}
            {ranks
              .map((r) => `${r.label} ${r.clock === 'epoch' ? 'epoch clock' : 'own clock'}`)
              .join(', ')}
            {own.length > 0 && (
              <label className="run-gpu-offset">
                {' '}
                · own clock starts at{' '}
                <input
                  type="number"
                  step={1}
                  data-testid="run-gpu-offset"
                  value={Math.round(offset * 1e3)}
                  onChange={(e) => {
                    const ms = Number(e.target.value);
                    if (Number.isFinite(ms)) props.onOffset(file, ms / 1e3);
                  }}
                />{' '}
                ms <span className="muted">({formatOffset(offset)} from the run's start)</span>
              </label>
            )}
          </span>
        );
      })}
    </div>
  );
}
