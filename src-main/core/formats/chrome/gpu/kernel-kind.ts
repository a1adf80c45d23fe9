import type { KernelKind } from '../../../model/gpu-profile';

/**
 * Collectives: NCCL's kernels (`ncclKernel_*`, `ncclDevKernel_*` since NCCL 2.19), ROCm's RCCL,
 * the custom all-reduce kernels inference engines ship (`cross_device_reduce_*`), and expert
 * parallelism's dispatch and combine (DeepEP's `deep_ep::intranode::combine`, NVSHMEM's
 * kernels), which move tokens between GPUs as a collective does. HTA looks for "ncclKernel"
 * alone, which misses the newer NCCL names; on HTA's own traces both rules give the same
 * kernels (tests/unit/gpu).
 */
const COMMUNICATION =
  /nccl|rccl|all_?reduce|all_?gather|reduce_?scatter|all_?to_?all|cross_device_reduce|deep_ep::|nvshmem/i;

/** HTA's memory kernels ("Memcpy ...", "Memset ..."), and ROCm's copy and fill names. */
const MEMORY = /Memcpy|Memset|^Copy(?:HostToDevice|DeviceToHost|DeviceToDevice)|^FillBuffer/;

/** A GPU event's kind, as HTA's get_kernel_type decides it, by name (and Kineto's category). */
export function kernelKind(name: string, cat: string | null): KernelKind {
  if (COMMUNICATION.test(name)) return 'communication';
  if (cat === 'gpu_memcpy' || cat === 'gpu_memset' || MEMORY.test(name)) return 'memory';
  return 'computation';
}
