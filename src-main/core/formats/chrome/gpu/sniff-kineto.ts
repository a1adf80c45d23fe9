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
 * in the head says so; so does Kineto's own start, `schemaVersion` first, which no other
 * writer of Chrome traces puts there: Kineto writes the CPU's events before the GPU's, so a
 * trace without header keys (a sampled one) can fill the head with CPU ops before its first
 * kernel, and a large job's header can pass the head before `traceEvents` begins
 * (distributedInfo's pg_config lists every process group's ranks: 4 groups of 4096 ranks are
 * 78 KB), where a header key of Kineto's own says it.
 */
export function sniffKineto(head: Uint8Array): boolean {
  try {
    const text = new TextDecoder('utf-8', { fatal: false }).decode(head);
    const chrome = sniffChromeTrace(head);
    if (chrome && GPU_SIGNS.test(text)) return true;
    return KINETO_START.test(text) && (chrome || KINETO_HEADER_KEY.test(text));
  } catch {
    return false;
  }
}
