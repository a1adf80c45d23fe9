import { openFileSource } from '../../src-main/core/bytes/file-source';
import type { WithBytes } from '../../src-main/core/model/sample-facts';

/** The file at `path` opened again for each use, as the app reads a sample again. */
export function reopeningFile(path: string): WithBytes {
  return (use) => {
    const source = openFileSource(path);
    try {
      return use(source);
    } finally {
      source.close();
    }
  };
}
