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
