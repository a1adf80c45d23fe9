/**
 * A file that cannot be read is a value with a code, not a crash: the UI shows the code,
 * the file name and the byte offset beside the file, and the app goes on.
 */
export class FormatError extends Error {
  readonly code: string;
  readonly offset: number | undefined;

  constructor(code: string, message: string, offset?: number) {
    super(offset === undefined ? message : `${message} (at byte ${offset})`);
    this.name = 'FormatError';
    this.code = code;
    this.offset = offset;
  }
}

export function isFormatError(error: unknown): error is FormatError {
  return error instanceof FormatError;
}
