/** Types of hostile-writers.mjs (see its comments) for the TypeScript tests that use it. */
export function flowFanout(n: number): string;
export function nestedFlows(n: number): string;
export function asyncOverlap(n: number): string;
export function asyncSameId(n: number): string;
export function tinyProcesses(n: number): string;
export function manyInstants(n: number): string;
export function longThreadName(nameBytes: number, slices: number): string;
export function deepChromeArgs(depth: number): string;
export function oneProcessTrace(slices: number): Generator<string>;
export function hugeChromeTs(): string;
export function timelineOverlap(n: number): string;
export function timelineLongLine(bytes: number): Generator<string>;
export function timelineManyRanks(n: number): Generator<string>;
export function deepTimelineFields(depth: number): string;
export function timelineHugeSequence(): string;
