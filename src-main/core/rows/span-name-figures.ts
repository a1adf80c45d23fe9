import type { Distribution } from '../model/perf';
import { stats } from './perf-summary';
import { spanNamePattern } from '../model/span-name-pattern';

/**
 * Figures per span name (ids replaced by `*`), for files without slime's perf keys: where the
 * time went, by kind of span. Keys `span/<name>/{count,total,mean,median,max,min}`, seconds.
 */
export function spanNameFigures(durations: Distribution[]): Record<string, number> {
  const byPattern = new Map<string, number[]>();
  for (const { name, valuesSec } of durations) {
    const pattern = spanNamePattern(name);
    const list = byPattern.get(pattern);
    if (list) for (const value of valuesSec) list.push(value);
    else byPattern.set(pattern, [...valuesSec]);
  }
  const figures: Record<string, number> = {};
  const patterns = [...byPattern.entries()].sort(
    (a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1),
  );
  for (const [pattern, values] of patterns) {
    const metric = `span/${pattern}`;
    figures[`${metric}/count`] = values.length;
    figures[`${metric}/total`] = values.reduce((sum, value) => sum + value, 0);
    Object.assign(figures, stats(metric, values));
  }
  return figures;
}
