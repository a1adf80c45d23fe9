/**
 * JSON text of a value that may hold ints beyond 2^53 as bigints (a pickle's LONG, kept exact
 * as slime's own JSON keeps a Python int): each written as its digits, a JSON number, where
 * JSON.stringify throws. The digits go through a marked string that no file's text can forge
 * (the mark is made at start-up), then lose their quotes.
 */
const MARK = `\u0000int${Math.random().toString(36).slice(2, 10)}:`;
/** the mark as JSON writes it inside a string */
const MARK_JSON = JSON.stringify(MARK).slice(1, -1);
const MARKED = new RegExp(`"${MARK_JSON.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')}(-?\\d+)"`, 'g');

const markBigInt = (_key: string, value: unknown): unknown =>
  typeof value === 'bigint' ? `${MARK}${value.toString()}` : value;

export function jsonText(value: unknown, space?: number): string {
  const text = JSON.stringify(value, markBigInt, space) as string | undefined;
  // undefined (a function, nothing) stays what JSON.stringify gives
  if (text === undefined) return text as unknown as string;
  return text.includes(MARK_JSON) ? text.replace(MARKED, '$1') : text;
}
