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
 * One rank of a Kineto (torch.profiler) trace of a GPU job, about `bytes` long: distributedInfo
 * and baseTimeNanoseconds, ProfilerStep#N annotations over cpu_op trees on the host thread,
 * each op launching a kernel (cudaLaunchKernel, correlation id, ac2g flow) onto one of 3
 * streams of the rank's GPU; every 10th kernel an NCCL all-reduce on its own stream, every
 * 25th a memcpy. Written in pieces, so any size fits. Returns the number of events.
 */
export function writeKinetoRankTrace(path, bytes, rank) {
  const fd = openSync(path, 'w');
  let size = 0;
  let buffer = `{"schemaVersion":1,"deviceProperties":[{"id":${rank},"name":"NVIDIA H100"}],"distributedInfo":{"backend":"nccl","rank":${rank},"world_size":8},"traceEvents":[\n`;
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
  emit({ ph: 'M', name: 'process_name', pid, tid: 0, args: { name: `python ${rank}` } });
  emit({ ph: 'M', name: 'process_labels', pid: rank, tid: 0, args: { labels: `GPU ${rank}` } });
  let ts = 1000;
  let correlation = 1;
  for (let step = 0; size + buffer.length < bytes; step++) {
    emit({ ph: 'X', cat: 'user_annotation', name: `ProfilerStep#${step}`, pid, tid: pid, ts, dur: 2000, args: { 'External id': step } });
    let gpuTs = ts + 30;
    for (let op = 0; op < 40; op++) {
      const start = ts + 5 + op * 48;
      const id = correlation++;
      const comm = id % 10 === 0;
      const memcpy = id % 25 === 0;
      emit({ ph: 'X', cat: 'cpu_op', name: `aten::op_${op % 17}`, pid, tid: pid, ts: start, dur: 40, args: { 'External id': id, 'Sequence number': op } });
      emit({ ph: 'X', cat: 'cuda_runtime', name: memcpy ? 'cudaMemcpyAsync' : 'cudaLaunchKernel', pid, tid: pid, ts: start + 10, dur: 8, args: { 'External id': id, cbid: 211, correlation: id } });
      const stream = comm ? 20 : 7 + (op % 3);
      const name = comm
        ? 'ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)'
        : memcpy
          ? 'Memcpy HtoD (Pinned -> Device)'
          : `void at::native::kernel_${op % 23}<float, 128>(float*, int)`;
      const dur = comm ? 120 : 25 + (op % 7) * 3;
      emit({ ph: 'X', cat: memcpy ? 'gpu_memcpy' : 'kernel', name, pid: rank, tid: stream, ts: gpuTs, dur, args: { 'External id': id, device: rank, stream, correlation: id, grid: [128, 1, 1], block: [256, 1, 1] } });
      emit({ ph: 's', cat: 'ac2g', name: 'ac2g', id, pid, tid: pid, ts: start + 10 });
      emit({ ph: 'f', cat: 'ac2g', name: 'ac2g', id, pid: rank, tid: stream, ts: gpuTs, bp: 'e' });
      gpuTs += comm ? 20 : dur + 5;
    }
    ts += 2100;
  }
  buffer += `\n],"traceName":"rank-${rank}.pt.trace.json","baseTimeNanoseconds":1700000000000000000}\n`;
  flush();
  closeSync(fd);
  return written;
}
