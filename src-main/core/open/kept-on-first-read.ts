/**
 * `object[key]` made by `make` when first read, then kept as a plain value. Enumerable, so a
 * spread, JSON or a structured clone of the object reads (and makes) it like any field.
 */
export function keptOnFirstRead<T extends object, K extends keyof T>(
  object: T,
  key: K,
  make: () => T[K],
): void {
  Object.defineProperty(object, key, {
    configurable: true,
    enumerable: true,
    get() {
      const value = make();
      Object.defineProperty(object, key, { value, writable: true, enumerable: true });
      return value;
    },
    set(value: T[K]) {
      Object.defineProperty(object, key, { value, writable: true, enumerable: true });
    },
  });
}
