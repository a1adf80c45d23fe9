import type { PyValue } from '../../model/py-value';

/**
 * A dict read as a record (PickleOptions.records): the values of the keys its reader has a
 * field for, in fields of one fixed shape; any other key is dropped. A dict built key by key
 * is a keyed store per key into an object of its own shape, and every later read of it a
 * look-up by name: slime's trace events are millions of such dicts, read once by a row's walk.
 * A record is a value only for the reader that asked for it: it never leaves that reader's
 * use (a row is built from it, then it is let go).
 */
export abstract class DictRecord {
  /** the field that keeps key `key`'s value, or -1: the key is dropped */
  abstract field(key: string): number;
  /** the value of field `field` (a later value for a key replaces the earlier, as in a dict) */
  abstract setField(field: number, value: PyValue): void;

  /** dict[key] = value */
  set(key: string, value: PyValue): void {
    const field = this.field(key);
    if (field >= 0) this.setField(field, value);
  }
}

/**
 * Which dicts are read as records: those of a list held at key `path[1]` of a dict held at key
 * `path[0]` of an item of the list the reader watches (PickleOptions.onListItem), e.g. a
 * sample's `trace` -> `events`, when the list's items come in a batch (MARK ... APPENDS, as
 * CPython's pickler writes any list of two items or more) and the two dicts are filled in
 * batches (MARK ... SETITEMS). Any other dict is built as a dict.
 */
export interface DictRecords {
  readonly path: readonly [string, string];
  make(): DictRecord;
}
