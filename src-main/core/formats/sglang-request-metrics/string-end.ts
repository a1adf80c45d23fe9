/** Where the JSON string whose contents start at `from` ends (its closing quote), or -1. */
export function stringEnd(bytes: Uint8Array, from: number): number {
  let at = from;
  for (;;) {
    const quote = bytes.indexOf(0x22, at);
    if (quote < 0) return -1;
    let slashes = 0;
    while (quote - slashes - 1 >= from && bytes[quote - slashes - 1] === 0x5c) slashes++;
    if (slashes % 2 === 0) return quote;
    at = quote + 1;
  }
}
