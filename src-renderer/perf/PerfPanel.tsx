// The perf view's first name, still imported by timeline/FileView.tsx: kept so both work.
export { PerfView as PerfPanel } from './PerfView';
