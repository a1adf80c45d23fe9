import { sniffChromeTrace } from '../sniff-chrome-trace';

/**
 * What only a profiler with a GPU writes: Kineto's top-level `deviceProperties`,
 * `distributedInfo` or `baseTimeNanoseconds`, or a GPU or CUDA/HIP runtime category. A
 * torch.profiler trace without Kineto (cpu_op alone, the legacy exporter) stays a plain Chrome
 * trace.
 */
const GPU_SIGNS =
  /"(?:deviceProperties|distributedInfo|baseTimeNanoseconds)"\s*:|"cat"\s*:\s*"(?:kernel|gpu_memcpy|gpu_memset|cuda_runtime|cuda_driver|hip_runtime|gpu_user_annotation)"/;

/** Kineto's first key (libkineto's ChromeTraceLogger, torch's older exporter alike). */
const KINETO_START = /^\uFEFF?\s*\{\s*"schemaVersion"\s*:\s*\d+\s*,/;
/** A header key only Kineto writes before its events. */
const KINETO_HEADER_KEY = /"(?:deviceProperties|distributedInfo)"\s*:/;

/**
 * Is `head` the start of a Kineto (torch.profiler) trace of a GPU run? Never throws. A GPU sign
 * in the head says so. A large job's header can pass the head before `traceEvents` begins
 * (distributedInfo's pg_config lists every process group's ranks: 4 groups of 4096 ranks are
 * 78 KB): there Kineto's own start, `schemaVersion` first, and a header key of its own say it.
 * `schemaVersion` alone does not: a trace without header keys whose head holds CPU ops only
 * stays a Chrome trace (the benches' CPU-only Chrome trace has that start).
 */
export function sniffKineto(head: Uint8Array): boolean {
  try {
    const text = new TextDecoder('utf-8', { fatal: false }).decode(head);
    if (sniffChromeTrace(head)) return GPU_SIGNS.test(text);
    return KINETO_START.test(text) && KINETO_HEADER_KEY.test(text);
  } catch {
    return false;
  }
}
