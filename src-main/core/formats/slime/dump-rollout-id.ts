import type { AttrValue } from '../../model/row';

/** The dump's rollout id, and when it was not written in the dump, a notice saying whence. */
export interface DumpRolloutId {
  rolloutId: AttrValue;
  notice: string | null;
}

/**
 * The names slime gives its dumps: `rollout_{id}.pt` (`--save-debug-rollout-data`'s usual
 * template), `eval_{id}.pt` (`--dump-details`; `rollout_eval_{id}.pt` with that template), and
 * either gzipped by hand.
 */
const SLIME_DUMP_NAME = /(?:^|[^A-Za-z0-9])(?:rollout|eval)_(\d{1,15})\.pt(?:\.gz)?$/i;

/**
 * (ours) A sample is resumed when its `metadata.start_rollout_id` is below the dump's rollout id
 * (TRACE_MODEL, partial rollouts), but older and hand-made dumps (a bare list of samples) carry
 * no id. Their file name, as slime writes it, says it; else the samples do: the largest
 * `start_rollout_id` is this rollout when every sample carries one, and one past it when some
 * carry none (slime marks only resumed samples: rollout_8.pt's 8 resumed samples carry 7, its
 * 16 others nothing). Nothing to go on: no id, as before.
 */
export function dumpRolloutId(
  written: AttrValue,
  fileName: string,
  /**
   * each traced sample's `metadata.start_rollout_id` (null: none), asked only when neither the
   * dump nor its name says (a walk of every row at the end of every open otherwise)
   */
  startRolloutIds: () => readonly (number | null)[],
): DumpRolloutId {
  if (written !== null) return { rolloutId: written, notice: null };
  const named = SLIME_DUMP_NAME.exec(fileName);
  if (named) {
    const rolloutId = Number(named[1]);
    return {
      rolloutId,
      notice: `The dump holds no rollout_id: taken as ${rolloutId} from its file name (${fileName}), to tell samples resumed from an earlier rollout.`,
    };
  }
  let largest: number | null = null;
  let unmarked = 0;
  const ids = startRolloutIds();
  for (const id of ids) {
    if (id === null) unmarked++;
    else if (largest === null || id > largest) largest = id;
  }
  if (largest === null) return { rolloutId: null, notice: null };
  if (unmarked === 0) {
    return {
      rolloutId: largest,
      notice: `The dump holds no rollout_id and its file name gives none: taken as ${largest}, the largest metadata.start_rollout_id of its samples.`,
    };
  }
  const marked = ids.length - unmarked;
  return {
    rolloutId: largest + 1,
    notice: `The dump holds no rollout_id and its file name gives none: taken as ${largest + 1}, one past the largest metadata.start_rollout_id (${largest}); slime marks only resumed samples, so the ${marked} marked samples count as resumed.`,
  };
}
