/**
 * A sample field, or the keys down to one nested in dicts (slime's multimodal_train_inputs →
 * pixel_values).
 */
export type SampleFieldPath = string | string[];

/** A field path as text: its keys joined by dots. */
export function fieldName(field: SampleFieldPath): string {
  return typeof field === 'string' ? field : field.join('.');
}

/** The value at `field` in `sample`: each key read from a plain object; undefined past one. */
export function valueAtPath(sample: unknown, field: SampleFieldPath): unknown {
  let value = sample;
  for (const key of typeof field === 'string' ? [field] : field) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
    if (!Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}
