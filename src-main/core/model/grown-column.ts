/** The typed arrays the app grows as it fills them (store, search texts, columns of a read). */
type TypedColumn = Float64Array | Int32Array | Uint8Array | Uint16Array;

/**
 * A column of the same kind as `column`, with room for `length` values at least and `factor`
 * times `column`'s at least, holding `column`'s values at its start. Each grower picks its
 * factor: doubling for what is copied out at the end, less for what stays allocated.
 */
export function grownColumn<T extends TypedColumn>(column: T, length: number, factor: number): T {
  const bigger = new (column.constructor as new (n: number) => T)(
    Math.max(length, Math.ceil(column.length * factor)),
  );
  bigger.set(column);
  return bigger;
}
