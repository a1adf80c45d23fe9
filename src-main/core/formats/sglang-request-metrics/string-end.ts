/** Bytes looked at one by one before a native search takes over. */
const NEAR = 48;

/**
 * Where the JSON string whose contents start at `from` ends (its closing quote), or -1. A key or
 * short value ends within a few bytes: those are looked at here, since a native indexOf call
 * cost more than the scan (a quarter of the line scan at 200k records); a long string (the
 * prompt) is searched natively from there.
 */
export function stringEnd(bytes: Uint8Array, from: number): number {
  const near = Math.min(bytes.length, from + NEAR);
  for (let i = from; i < near; i++) {
    const b = bytes[i];
    if (b === 0x22) return i;
    if (b === 0x5c) return searched(bytes, from, from); // an escape: the careful way
  }
  return near === bytes.length ? -1 : searched(bytes, from, near);
}

/** The closing quote from `at` on, a quote after an odd run of backslashes skipped. */
function searched(bytes: Uint8Array, from: number, at: number): number {
  let next = at;
  for (;;) {
    const quote = bytes.indexOf(0x22, next);
    if (quote < 0) return -1;
    let slashes = 0;
    while (quote - slashes - 1 >= from && bytes[quote - slashes - 1] === 0x5c) slashes++;
    if (slashes % 2 === 0) return quote;
    next = quote + 1;
  }
}
