/** Pickle opcodes and small values, for tests that write pickles opcode by opcode. */
export const OP = {
  EMPTY_LIST: 0x5d,
  EMPTY_DICT: 0x7d,
  MARK: 0x28,
  APPENDS: 0x65,
  SETITEM: 0x73,
  SETITEMS: 0x75,
  POP: 0x30,
  STOP: 0x2e,
  BINPUT: 0x71,
  BINGET: 0x68,
  BINPERSID: 0x51,
} as const;

/** a short string (SHORT_BINUNICODE), e.g. a dict key */
export const key = (k: string): number[] => [0x8c, k.length, ...new TextEncoder().encode(k)];
/** an int below 256 (BININT1) */
export const int = (v: number): number[] => [0x4b, v];
