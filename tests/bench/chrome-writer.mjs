import { closeSync, openSync, writeSync } from 'node:fs';

/**
 * A Chrome trace in the shape torch.profiler's Kineto exporter writes (the object form with
 * traceEvents; cpu_op complete events with args, nested three deep, on 8 threads of 4
 * processes; a flow per step), `events` long. Written in pieces, so any size fits.
 */
export function writeChromeTrace(path, events) {
  const fd = openSync(path, 'w');
  let buffer = '{"schemaVersion":1,"displayTimeUnit":"ms","traceEvents":[\n';
  const flush = () => {
    writeSync(fd, buffer);
    buffer = '';
  };
  let written = 0;
  let ts = 1_700_000_000_000_000;
  const emit = (event) => {
    buffer += (written++ === 0 ? '' : ',\n') + JSON.stringify(event);
    if (buffer.length > 1 << 20) flush();
  };
  for (let pid = 0; pid < 4; pid++) {
    emit({ ph: 'M', name: 'process_name', pid: 1000 + pid, tid: 0, args: { name: `rank ${pid}` } });
  }
  for (let step = 0; written < events; step++) {
    const pid = 1000 + (step % 4);
    const tid = step % 8;
    emit({ ph: 'X', cat: 'user_annotation', name: `ProfilerStep#${step}`, pid, tid, ts, dur: 900, args: { 'External id': step } });
    for (let op = 0; op < 20 && written < events; op++) {
      const start = ts + 5 + op * 44;
      emit({ ph: 'X', cat: 'cpu_op', name: `aten::op_${op % 13}`, pid, tid, ts: start, dur: 40.5, args: { 'External id': step * 100 + op, 'Sequence number': op, 'Fwd thread id': 0 } });
      emit({ ph: 'X', cat: 'cpu_op', name: 'aten::empty', pid, tid, ts: start + 1, dur: 2.25, args: { 'External id': step * 100 + op + 50 } });
    }
    emit({ ph: 's', cat: 'ac2g', name: 'ac2g', id: step, pid, tid, ts: ts + 10 });
    emit({ ph: 'f', cat: 'ac2g', name: 'ac2g', id: step, pid, tid: (tid + 1) % 8, ts: ts + 500, bp: 'e' });
    ts += 1000;
  }
  buffer += '\n]}\n';
  flush();
  closeSync(fd);
  return written;
}

/**
 * One rank of a Kineto (torch.profiler) trace of a GPU job, about `bytes` long, in the shape
 * Kineto writes it: distributedInfo and deviceProperties first, baseTimeNanoseconds after the
 * events; ProfilerStep#N annotations over cpu_op trees on the host thread (an aten op, the op
 * it calls, and in it the runtime call: cudaLaunchKernel / cudaMemcpyAsync with its correlation
 * id), each launch's kernel on one of 3 streams of the rank's GPU (its own pid, as Kineto
 * writes devices) with the same correlation and an ac2g flow; every 10th kernel an NCCL
 * all-reduce on its own stream, every 25th a memcpy; a backward thread of cpu_ops without
 * launches; process and thread metadata at the end. Written in pieces, so any size fits.
 * Returns the number of events.
 */
export function writeKinetoRankTrace(path, bytes, rank) {
  const fd = openSync(path, 'w');
  let size = 0;
  let buffer = `{"schemaVersion":1,"deviceProperties":[{"id":${rank},"name":"NVIDIA H100 80GB HBM3","totalGlobalMem":85031714816,"computeMajor":9,"computeMinor":0,"numSms":132}],"distributedInfo":{"backend":"nccl","rank":${rank},"world_size":8},"record_shapes":1,"traceEvents":[\n`;
  const flush = () => {
    writeSync(fd, buffer);
    size += buffer.length;
    buffer = '';
  };
  let written = 0;
  const emit = (event) => {
    buffer += (written++ === 0 ? '' : ',\n') + JSON.stringify(event);
    if (buffer.length > 1 << 20) flush();
  };
  const pid = 4000 + rank;
  const backward = pid + 17;
  let ts = 1000;
  let correlation = 1;
  let external = 1;
  for (let step = 0; size + buffer.length < bytes; step++) {
    emit({ ph: 'X', cat: 'user_annotation', name: `ProfilerStep#${step}`, pid, tid: pid, ts, dur: 2000, args: { 'External id': external++ } });
    let gpuTs = ts + 30;
    for (let op = 0; op < 40; op++) {
      const start = ts + 5 + op * 48;
      const id = correlation++;
      const comm = id % 10 === 0;
      const memcpy = id % 25 === 0;
      const dims = [[2048, 16 * (op % 5 + 1)], [16 * (op % 5 + 1), 1024]];
      emit({ ph: 'X', cat: 'cpu_op', name: `aten::op_${op % 17}`, pid, tid: pid, ts: start, dur: 40, args: { 'External id': external++, 'Record function id': 0, 'Ev Idx': id * 3, 'Input Dims': dims, 'Input type': ['float', 'float'], 'Sequence number': op, 'Fwd thread id': 0 } });
      emit({ ph: 'X', cat: 'cpu_op', name: `aten::inner_${op % 11}`, pid, tid: pid, ts: start + 3, dur: 30, args: { 'External id': external++, 'Ev Idx': id * 3 + 1, 'Input Dims': dims, 'Input type': ['float', 'float'] } });
      emit({ ph: 'X', cat: 'cuda_runtime', name: memcpy ? 'cudaMemcpyAsync' : 'cudaLaunchKernel', pid, tid: pid, ts: start + 10, dur: 8, args: { 'External id': external - 1, cbid: memcpy ? 41 : 211, correlation: id } });
      const stream = comm ? 20 : 7 + (op % 3);
      const name = comm
        ? 'ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)'
        : memcpy
          ? 'Memcpy HtoD (Pinned -> Device)'
          : `void at::native::elementwise_kernel<128, 2, at::native::kernel_${op % 23}<float> >(int, float*)`;
      const dur = comm ? 120 : 25 + (op % 7) * 3;
      const kernelArgs = memcpy
        ? { 'External id': external - 1, device: rank, context: 1, stream, correlation: id, bytes: 16777216, 'memory bandwidth (GB/s)': 960.23 }
        : { 'External id': external - 1, queued: 0, device: rank, context: 1, stream, correlation: id, 'registers per thread': 32, 'shared memory': 0, 'blocks per SM': 0.97, 'warps per SM': 3.88, grid: [128, 1, 1], block: [256, 1, 1], 'est. achieved occupancy %': 6 };
      emit({ ph: 'X', cat: memcpy ? 'gpu_memcpy' : 'kernel', name, pid: rank, tid: stream, ts: gpuTs, dur, args: kernelArgs });
      emit({ ph: 's', id, pid, tid: pid, ts: start + 10, cat: 'ac2g', name: 'ac2g' });
      emit({ ph: 'f', id, pid: rank, tid: stream, ts: gpuTs, cat: 'ac2g', name: 'ac2g', bp: 'e' });
      gpuTs += comm ? 20 : dur + 5;
    }
    for (let op = 0; op < 4; op++) {
      emit({ ph: 'X', cat: 'cpu_op', name: `autograd::engine::evaluate_function: Backward${op}`, pid, tid: backward, ts: ts + op * 400, dur: 300, args: { 'External id': external++, 'Fwd thread id': 1, 'Sequence number': step * 4 + op } });
    }
    ts += 2100;
  }
  const meta = (name, p, tid, args) => emit({ ph: 'M', name, pid: p, tid, ts: 1682725898236000, args });
  meta('process_name', pid, 0, { name: `python ${rank}` });
  meta('process_labels', pid, 0, { labels: 'CPU' });
  meta('process_sort_index', pid, 0, { sort_index: pid });
  meta('process_name', rank, 0, { name: `python ${rank}` });
  meta('process_labels', rank, 0, { labels: `GPU ${rank}` });
  meta('process_sort_index', rank, 0, { sort_index: 16777216 + rank });
  for (const stream of [7, 8, 9, 20]) meta('thread_name', rank, stream, { name: `stream ${stream} ` });
  meta('thread_name', pid, pid, { name: `thread ${pid} (python)` });
  meta('thread_name', pid, backward, { name: `thread ${backward} (pt_autograd_0)` });
  buffer += `\n],"traceName":"rank-${rank}.pt.trace.json","baseTimeNanoseconds":1700000000000000000}\n`;
  flush();
  closeSync(fd);
  return written;
}
