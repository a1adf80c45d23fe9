/**
 * The unit a chart's y axis reads in: durations in one of h, min, s or ms chosen by the largest
 * value (so ticks are round numbers of one unit, never `1.67m | 2.5m`); other units as they are.
 */
export function displayUnit(
  unit: string,
  values: number[],
): { unit: string; label: string; divisor: number } {
  if (unit !== 's') return { unit, label: unit, divisor: 1 };
  const largest = Math.max(0, ...values.map(Math.abs));
  if (largest >= 2 * 3600) return { unit: 'h', label: 'h', divisor: 3600 };
  if (largest >= 120) return { unit: 'min', label: 'min', divisor: 60 };
  if (largest > 0 && largest < 1) return { unit: 'ms', label: 'ms', divisor: 1e-3 };
  return { unit: 's', label: 's', divisor: 1 };
}
