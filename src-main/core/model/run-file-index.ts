/** A file as a run lists it: its id, and where it is on disk (null for dropped bytes). */
interface FileNamed {
  fileId: string;
  path: string | null;
}

/**
 * Where `file` is among a run's files: the run's own file, or the same file on disk opened
 * apart (a run's files open in its tab; the dumps a user compares or groups open on their
 * own). -1 when the run does not hold it.
 */
export function runFileIndex(files: readonly { file: FileNamed }[], file: FileNamed): number {
  return files.findIndex(
    (f) => f.file.fileId === file.fileId || (file.path !== null && f.file.path === file.path),
  );
}
