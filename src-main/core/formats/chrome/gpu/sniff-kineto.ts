import { sniffChromeTrace } from '../sniff-chrome-trace';

/**
 * What only a profiler with a GPU writes: Kineto's top-level `deviceProperties`,
 * `distributedInfo` or `baseTimeNanoseconds`, or a GPU or CUDA/HIP runtime category. A
 * CPU-only torch.profiler trace (cpu_op alone) stays a plain Chrome trace.
 */
const GPU_SIGNS =
  /"(?:deviceProperties|distributedInfo|baseTimeNanoseconds)"\s*:|"cat"\s*:\s*"(?:kernel|gpu_memcpy|gpu_memset|cuda_runtime|cuda_driver|hip_runtime|gpu_user_annotation)"/;

/** Is `head` the start of a Kineto (torch.profiler) trace of a GPU run? Never throws. */
export function sniffKineto(head: Uint8Array): boolean {
  if (!sniffChromeTrace(head)) return false;
  try {
    return GPU_SIGNS.test(new TextDecoder('utf-8', { fatal: false }).decode(head));
  } catch {
    return false;
  }
}
