/**
 * The young generation a thread reading these files gets. Reading JSON (OTLP lines, a Chrome or
 * Kineto trace) makes a million objects that all live on: with V8's default nursery the
 * collector copies each one twice. A larger one for JSON files (by name; a wrong guess only
 * costs speed) cut the 1M-span OTLP open by ~15% for ~100 MB; dumps keep the default (memory).
 */
export function youngGenerationFor(paths: readonly string[]): {
  maxYoungGenerationSizeMb?: number;
} {
  return paths.some((path) => /\.jsonl?$/i.test(path)) ? { maxYoungGenerationSizeMb: 96 } : {};
}
