import type { CompareFigure } from '../api/trace-api';

const TIME_UNITS = [
  { unit: 'µs', sec: 1e-6 },
  { unit: 'ms', sec: 1e-3 },
  { unit: 's', sec: 1 },
  { unit: 'min', sec: 60 },
] as const;

/**
 * A figure's values as the table prints them, A, B and Δ in one unit chosen for the row: times
 * in µs, ms, s or min by the larger side, so no value needs more than 4 significant digits.
 */
export function shownFigure(f: Pick<CompareFigure, 'a' | 'b' | 'unit'>): CompareFigure['shown'] {
  const delta = f.a !== null && f.b !== null ? f.b - f.a : null;
  if (f.unit !== 's') {
    const [a, b] = [plain(f.a), plain(f.b)];
    return { unit: f.unit, a, b, delta: signed(delta, (v) => likeSides(v, a, b)) };
  }
  const larger = Math.max(Math.abs(f.a ?? 0), Math.abs(f.b ?? 0));
  let pick: (typeof TIME_UNITS)[number] = TIME_UNITS[2];
  for (const u of TIME_UNITS) if (larger >= u.sec) pick = u;
  if (larger > 0 && larger < 1e-6) pick = TIME_UNITS[0];
  // a whole minute reads better in seconds up to 2 min (90 s, not 1.500 min)
  if (pick.unit === 'min' && larger < 120) pick = TIME_UNITS[2];
  const inUnit = (v: number | null) => (v === null ? '–' : fixed(v / pick.sec));
  const [a, b] = [inUnit(f.a), inUnit(f.b)];
  return {
    unit: pick.unit,
    a,
    b,
    delta: signed(delta, (v) => likeSides(v / pick.sec, a, b)),
  };
}

/** Δ with as many decimals as its sides show (9.769 → 9.843: 0.074), 2 digits if that is 0 */
function likeSides(value: number, a: string, b: string): string {
  const decimals = Math.max(decimalsOf(a), decimalsOf(b));
  const text = value.toFixed(decimals);
  return Number(text) === 0 ? value.toPrecision(2) : text;
}

function decimalsOf(text: string): number {
  const dot = text.indexOf('.');
  return dot < 0 ? 0 : text.length - dot - 1;
}

function signed(delta: number | null, show: (v: number) => string): string {
  if (delta === null) return '–';
  if (delta === 0) return '0';
  return `${delta > 0 ? '+' : '−'}${show(Math.abs(delta))}`;
}

function plain(value: number | null): string {
  if (value === null || !Number.isFinite(value)) return '–';
  if (Number.isInteger(value)) return String(value);
  return fixed(value);
}

/** 4 significant digits without exponent, no more than 3 decimals from 1 up */
function fixed(value: number): string {
  if (!Number.isFinite(value)) return '–';
  const abs = Math.abs(value);
  if (abs === 0) return '0';
  if (abs >= 1000) return value.toFixed(0);
  if (abs >= 100) return value.toFixed(1);
  if (abs >= 10) return value.toFixed(2);
  if (abs >= 1) return value.toFixed(3);
  // below 1 only for non-time figures (times move to a smaller unit): 4 significant digits
  return value.toPrecision(4);
}
