/** Numbers for tables: 4 significant digits, integers as they are. */
export function formatNumber(value: number | null): string {
  if (value === null || !Number.isFinite(value)) return '–';
  if (Number.isInteger(value)) return value.toLocaleString('en-US');
  const abs = Math.abs(value);
  if (abs >= 1000) return value.toFixed(0);
  if (abs >= 1) return value.toPrecision(4);
  if (abs === 0) return '0';
  return value.toPrecision(3);
}

export function formatPercent(value: number | null): string {
  if (value === null || !Number.isFinite(value)) return '–';
  const sign = value > 0 ? '+' : '';
  return `${sign}${(value * 100).toFixed(1)}%`;
}

export function formatSeconds(sec: number): string {
  if (!Number.isFinite(sec)) return '–';
  if (Math.abs(sec) >= 60) return `${(sec / 60).toFixed(1)} min`;
  if (Math.abs(sec) >= 1) return `${sec.toFixed(2)} s`;
  return `${(sec * 1000).toFixed(1)} ms`;
}
