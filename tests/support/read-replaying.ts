import type { ByteSource } from '../../src-main/core/bytes/byte-source';
import type { PickleItemAt, PickleReplay } from '../../src-main/core/formats/pickle/pickle-replay';
import { readSlimeDump } from '../../src-main/core/formats/slime/read-slime-dump';

/**
 * A dump read as the app reads it, each sample taken as it completes (onSample): where each
 * lies, by index. `letGo`: the sample is then replaced by null in the list, as the app does.
 */
export function readReplaying(
  source: ByteSource,
  replay: PickleReplay | undefined,
  letGo: boolean,
) {
  const at = new Map<number, PickleItemAt | null>();
  const dump = readSlimeDump(source, {
    replay,
    onSamples: () => {},
    onSample: (_samples, index, sample, where) => {
      at.set(index, where);
      return letGo ? null : sample;
    },
  });
  return { dump, at };
}
