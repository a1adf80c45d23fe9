import { jsonText } from '../../src-main/core/model/json-text';
import type { AttrValue } from '../../src-main/core/model/row';
import { formatBytes } from '../units/byte-size';

/** Seconds as a short human duration: µs below a millisecond, min and h above a minute. */
export function formatDuration(sec: number | null | undefined): string {
  if (sec === null || sec === undefined || !Number.isFinite(sec)) return '—';
  const abs = Math.abs(sec);
  if (abs === 0) return '0 s';
  if (abs >= 3600) return `${(sec / 3600).toFixed(2)} h`;
  if (abs >= 60) return `${(sec / 60).toFixed(2)} min`;
  if (abs >= 1) return `${sec.toFixed(abs >= 10 ? 2 : 3)} s`;
  if (abs >= 1e-3) return `${(sec * 1e3).toFixed(abs >= 0.1 ? 1 : 2)} ms`;
  return `${(sec * 1e6).toFixed(abs >= 1e-5 ? 1 : 2)} µs`;
}

/** Milliseconds with enough digits that PD phases of a few µs do not all read "0.00 ms". */
export function formatMs(sec: number): string {
  const ms = sec * 1000;
  if (!Number.isFinite(ms)) return '—';
  const abs = Math.abs(ms);
  if (abs === 0) return '0 ms';
  if (abs >= 100) return `${ms.toFixed(1)} ms`;
  if (abs >= 1) return `${ms.toFixed(2)} ms`;
  return `${ms.toPrecision(2)} ms`;
}

/** A share as a percentage with one decimal; "<0.1%" keeps tiny non-zero shares visible. */
export function formatShare(part: number, whole: number): string {
  if (!(whole > 0) || !Number.isFinite(part)) return '—';
  const pct = (part / whole) * 100;
  if (pct > 0 && pct < 0.1) return '<0.1%';
  return `${pct.toFixed(1)}%`;
}

/**
 * Epoch seconds as a local wall-clock time with milliseconds (what logs next to it show); ''
 * for times before 2001-09-09 (1e9 s): those are on a clock of their own (a profiler's time
 * since it started, as torch.profiler's Chrome traces), not dates.
 */
export function formatWallClock(epochSec: number): string {
  if (!Number.isFinite(epochSec)) return '—';
  if (epochSec < 1e9) return '';
  const date = new Date(epochSec * 1000);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ` +
    `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.` +
    pad(date.getMilliseconds(), 3)
  );
}

/** A number as read: integers whole, others to 6 significant digits without trailing noise. */
export function formatNumber(value: number): string {
  if (Number.isInteger(value)) return String(value);
  if (!Number.isFinite(value)) return String(value);
  const abs = Math.abs(value);
  if (abs !== 0 && (abs < 1e-4 || abs >= 1e9)) return value.toExponential(4);
  return String(Number(value.toPrecision(6)));
}

/**
 * One attribute value as display text. Markers from main ($lazy token lists, tensors, arrays,
 * inert pickled objects) read as what they are instead of as their JSON.
 */
export function formatAttrValue(value: AttrValue | undefined): string {
  if (value === undefined) return '';
  if (value === null) return 'null';
  if (typeof value === 'number') return formatNumber(value);
  if (typeof value !== 'object') return String(value);
  if (!Array.isArray(value)) {
    const marker = describeMarker(value);
    if (marker) return marker;
  }
  return jsonText(value);
}

/**
 * A number with the unit its key names, as slime's viewer writes them: `_gb_s` 2 decimals
 * GB/s, `_mb` 1 decimal MB, `_ms` ms, `_tok_s`/`throughput` tok/s, and seconds (`_duration`,
 * `_latency`, `_time`, `_sec`, `_s`) as a duration; anything else as formatAttrValue does.
 */
export function formatValueWithUnit(key: string, value: AttrValue | undefined): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) return formatAttrValue(value);
  const k = key.toLowerCase();
  if (/(_|^)gb_s$/.test(k)) return `${value.toFixed(2)} GB/s`;
  if (/(_|^)mb$/.test(k)) return `${value.toFixed(1)} MB`;
  if (/(_|^)ms$/.test(k)) return `${formatNumber(value)} ms`;
  if (/(tok_s|tokens_per_s|throughput)$/.test(k)) return `${value.toFixed(1)} tok/s`;
  if (/(_duration|_latency|_time|_sec|_secs|_s)$/.test(k) && !/(^|_)(start|end)_time$/.test(k))
    return formatDuration(value);
  return formatAttrValue(value);
}

/** Text for main's value markers, or null for an ordinary dict. */
export function describeMarker(value: { [key: string]: AttrValue }): string | null {
  if (value.$lazy === true) {
    const elem = typeof value.elemType === 'string' ? ` ${value.elemType}` : '';
    return `list of ${String(value.length)}${elem} (load on request)`;
  }
  if (value.$tensor === true || value.$ndarray === true) {
    const shape = Array.isArray(value.shape) ? value.shape.join(' × ') : '?';
    const kind = `${value.$ndarray ? 'array' : 'tensor'} ${String(value.dtype ?? '?')} [${shape}]`;
    // a small array's numbers, sent with it
    if (!Array.isArray(value.values)) return kind;
    const numbers = value.values.map((v) =>
      typeof v === 'number' && !Number.isInteger(v) ? String(Number(v.toPrecision(6))) : String(v),
    );
    return `${kind}: ${numbers.join(' ')}`;
  }
  if (typeof value.$bytes === 'number') return `${formatBytes(value.$bytes)} of bytes`;
  if (typeof value.$class === 'string') return `class ${value.$class}`;
  if (typeof value.$object === 'string') {
    const args = Array.isArray(value.args) && value.args.length > 0 ? jsonText(value.args) : '';
    return `object ${value.$object}(${args.slice(1, -1)})`;
  }
  return null;
}
