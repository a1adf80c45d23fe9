/** Who a rank trace is: its number (when one is known) and what people call it. */
export interface RankName {
  rank: number | null;
  label: string;
}

/**
 * SGLang's profiler files: `<id>-TP-<r>[-DP-<r>][-PP-<r>][-EP-<r>][-prefill|-decode].trace.json.gz`
 * (python/sglang/srt/managers/scheduler_profiler_mixin.py); the parts become the label. `TP`
 * starts the name or follows a separator (the id's `-`): `HTTP-2` names no tensor-parallel rank.
 */
const SGLANG =
  /(?:^|[-_.])TP-(\d+)(?:-DP-(\d+))?(?:-PP-(\d+))?(?:-EP-(\d+))?(?:-(prefill|decode))?/;
/** `rank-3`, `rank_3`, `rank3` (HTA's test data, torch's tensorboard handler) */
const RANK = /(?:^|[^a-z])rank[-_]?(\d+)/i;

/**
 * A rank's name: distributedInfo.rank first (torch writes it when torch.distributed is up),
 * then what the file name says, then the file name itself.
 */
export function rankName(distributedRank: unknown, fileName: string): RankName {
  const base = fileName.replace(/^.*[\\/]/, '');
  const sglang = SGLANG.exec(base);
  const parts = sglang
    ? [
        `TP-${sglang[1]}`,
        sglang[2] !== undefined ? `DP-${sglang[2]}` : null,
        sglang[3] !== undefined ? `PP-${sglang[3]}` : null,
        sglang[4] !== undefined ? `EP-${sglang[4]}` : null,
        sglang[5] ?? null,
      ]
        .filter((p) => p !== null)
        .join(' ')
    : null;
  if (typeof distributedRank === 'number' && Number.isInteger(distributedRank)) {
    return {
      rank: distributedRank,
      label: parts ? `rank ${distributedRank} (${parts})` : `rank ${distributedRank}`,
    };
  }
  // the TP rank is the process's rank only without data or pipeline parallelism
  if (sglang !== null && parts !== null) {
    const tpOnly = sglang[2] === undefined && sglang[3] === undefined;
    return { rank: tpOnly ? Number(sglang![1]) : null, label: parts };
  }
  const numbered = RANK.exec(base);
  // `rank00003` is rank 3
  if (numbered) return { rank: Number(numbered[1]), label: `rank ${Number(numbered[1])}` };
  return { rank: null, label: base.replace(/(\.pt)?\.trace\.json(\.gz)?$|\.json(\.gz)?$/, '') };
}
