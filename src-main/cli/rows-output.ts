import { openFileSource } from '../core/bytes/file-source';
import { readSlimeDump } from '../core/formats/slime/read-slime-dump';
import { buildSlimeCache } from '../core/rows/slime-cache';
import { toFileError } from '../ingest/open-sources';
import type { SlimeCache } from '../core/model/row';

/** `rows FILE`: slime's cache JSON for a dump, computed the way slime's viewer does. */
export function buildRowsJson(path: string): SlimeCache {
  let source;
  try {
    source = openFileSource(path);
  } catch (error) {
    throw new Error(`${path}: ${(error as Error).message}`);
  }
  try {
    const dump = readSlimeDump(source);
    return buildSlimeCache(dump, path, Date.now() / 1000);
  } catch (error) {
    const detail = toFileError(error);
    throw new Error(`${path}: ${detail.message} [${detail.code}]`);
  } finally {
    source.close();
  }
}
