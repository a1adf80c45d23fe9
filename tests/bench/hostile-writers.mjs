// The inputs of issue 49's readers' cases, written by size: the hostile corpus
// (tests/unit/hostile/corpus.ts) makes them small, `npm run bench hostile` at the sizes.
// Each returns the file's text (or bytes), built in pieces so that large ones fit in a string.

/** A Chrome trace object around `events` (strings of JSON), one per line. */
function chromeTrace(events) {
  return `{"traceEvents":[\n${events.join(',\n')}\n]}\n`;
}

/** Case 1: `n` flow_out slices and `n` flow_in slices sharing one bind_id (flow v2). */
export function flowFanout(n) {
  const events = [];
  for (let i = 0; i < n; i++) {
    events.push(`{"ph":"X","name":"out","pid":1,"tid":1,"ts":${i * 2},"dur":1,"bind_id":7,"flow_out":true}`);
  }
  for (let i = 0; i < n; i++) {
    events.push(`{"ph":"X","name":"in","pid":1,"tid":2,"ts":${i * 2 + 1},"dur":1,"bind_id":7,"flow_in":true}`);
  }
  return chromeTrace(events);
}

/**
 * Case 3: `n` slices nested in one another on one thread (slice i spans [i, 4n - i]) and n/2
 * flows whose steps fall in the nested slices' tails, after the inner ones have ended (flow k:
 * s in slice 2k+1, f in slice 2k): binding one by walking up from the innermost slice costs the
 * depth.
 */
export function nestedFlows(n) {
  const events = [];
  for (let i = 0; i < n; i++) {
    events.push(`{"ph":"X","name":"s${i % 50}","pid":1,"tid":1,"ts":${i},"dur":${4 * n - 2 * i}}`);
  }
  for (let k = 0; k < n / 2; k++) {
    events.push(`{"ph":"s","name":"f","cat":"c","id":${k},"pid":1,"tid":1,"ts":${4 * n - 2 * k - 1.5}}`);
    events.push(`{"ph":"f","bp":"e","name":"f","cat":"c","id":${k},"pid":1,"tid":1,"ts":${4 * n - 2 * k - 0.5}}`);
  }
  return chromeTrace(events);
}

/** Case 3: `n` async slices (b/e) of distinct ids, all overlapping one another. */
export function asyncOverlap(n) {
  const events = [];
  for (let i = 0; i < n; i++) events.push(`{"ph":"b","name":"a","cat":"c","id":${i},"pid":1,"tid":1,"ts":${i}}`);
  for (let i = 0; i < n; i++) events.push(`{"ph":"e","name":"a","cat":"c","id":${i},"pid":1,"tid":1,"ts":${n + i}}`);
  return chromeTrace(events);
}

/** Case 3: `n` async slices on one id, ended in the order they began (each e ends the oldest). */
export function asyncSameId(n) {
  const events = [];
  for (let i = 0; i < n; i++) events.push(`{"ph":"b","name":"a${i}","cat":"c","id":1,"pid":1,"tid":1,"ts":${i}}`);
  for (let i = 0; i < n; i++) events.push(`{"ph":"e","name":"a${i}","cat":"c","id":1,"pid":1,"tid":1,"ts":${n + i}}`);
  return chromeTrace(events);
}

/** Case 4: `n` processes of one complete slice each. */
export function tinyProcesses(n) {
  const events = [];
  for (let i = 0; i < n; i++) events.push(`{"ph":"X","pid":${i},"ts":${i},"dur":1}`);
  return chromeTrace(events);
}

/** Case 4: `n` thread-scoped instants on one thread. */
export function manyInstants(n) {
  const events = [];
  for (let i = 0; i < n; i++) events.push(`{"ph":"i","ts":${i}}`);
  return chromeTrace(events);
}

/** Case 4: a thread named by `nameBytes` bytes, holding `slices` slices. */
export function longThreadName(nameBytes, slices) {
  const events = [`{"ph":"M","name":"thread_name","pid":1,"tid":1,"args":{"name":"${'n'.repeat(nameBytes)}"}}`];
  for (let i = 0; i < slices; i++) events.push(`{"ph":"X","name":"x","pid":1,"tid":1,"ts":${i * 2},"dur":1}`);
  return chromeTrace(events);
}

/** Case 5: one complete slice whose args nest `depth` arrays deep. */
export function deepChromeArgs(depth) {
  const deep = `${'['.repeat(depth)}1${']'.repeat(depth)}`;
  return chromeTrace([
    '{"ph":"X","name":"ok","pid":1,"tid":1,"ts":0,"dur":1}',
    `{"ph":"X","name":"deep","pid":1,"tid":1,"ts":2,"dur":1,"args":{"deep":${deep}}}`,
  ]);
}

/**
 * Case 5: a Chrome trace of one process (one row) of `slices` complete slices on 4 threads, each
 * slice with a few args: what torch.profiler writes for one rank.
 */
export function* oneProcessTrace(slices) {
  yield '{"traceEvents":[\n';
  let part = '';
  for (let i = 0; i < slices; i++) {
    part += `${i === 0 ? '' : ',\n'}{"ph":"X","cat":"cpu_op","name":"aten::op_${i % 13}","pid":1,"tid":${i % 4},"ts":${i * 10},"dur":8,"args":{"External id":${i},"Sequence number":${i % 1000}}}`;
    if (part.length > 1 << 20) {
      yield part;
      part = '';
    }
  }
  yield `${part}\n]}\n`;
}

/** Case 10: two slices, the second at ts 1.7e308 (microseconds). */
export function hugeChromeTs() {
  return chromeTrace([
    '{"ph":"X","name":"ok","pid":1,"tid":1,"ts":1000,"dur":5}',
    '{"ph":"X","name":"far","pid":1,"tid":1,"ts":1.7e308,"dur":1}',
  ]);
}

/** A timeline record line: the keys the sniffer wants on the first, `extra` JSON after. */
function timelineLine(fields) {
  return JSON.stringify({
    framework: 'slime',
    schema_version: 2,
    role: 'trainer',
    rank: 0,
    operation: 'grad_sync',
    record_type: 'span',
    ...fields,
  });
}

/** Case 3: `n` spans on one trainer rank, each overlapping the next without containing it. */
export function timelineOverlap(n) {
  const lines = [];
  const base = 1_700_000_000_000_000_000;
  for (let i = 0; i < n; i++) {
    lines.push(
      timelineLine({
        sequence_id: i,
        api_launch_timestamp_ns: base + i * 1000,
        completion_timestamp_ns: base + (i + n) * 1000,
      }),
    );
  }
  return `${lines.join('\n')}\n`;
}

/** Case 4: a record, then a line of `bytes` bytes (a record with a huge metadata string), then a record. */
export function* timelineLongLine(bytes) {
  const base = 1_700_000_000_000_000_000;
  yield `${timelineLine({ sequence_id: 0, api_launch_timestamp_ns: base, completion_timestamp_ns: base + 1000 })}\n`;
  yield '{"framework":"slime","schema_version":2,"rank":0,"operation":"x","record_type":"event","sequence_id":1,"api_launch_timestamp_ns":1700000000000002000,"metadata":{"blob":"';
  const piece = 'x'.repeat(1 << 20);
  let left = bytes;
  while (left > 0) {
    const take = Math.min(left, piece.length);
    yield take === piece.length ? piece : piece.slice(0, take);
    left -= take;
  }
  yield '"}}\n';
  yield `${timelineLine({ sequence_id: 2, api_launch_timestamp_ns: base + 3000, completion_timestamp_ns: base + 4000 })}\n`;
}

/** Case 4: `n` trainer ranks of one short event each (~80 bytes a line). */
export function* timelineManyRanks(n) {
  yield `${timelineLine({ sequence_id: 0, record_type: 'event', api_launch_timestamp_ns: 1 })}\n`;
  let part = '';
  for (let i = 1; i < n; i++) {
    part += `{"operation":"o","record_type":"event","rank":${i},"sequence_id":0,"api_launch_timestamp_ns":${i}}\n`;
    if (part.length > 1 << 20) {
      yield part;
      part = '';
    }
  }
  yield part;
}

/** Case 5: a trainer record whose metadata nests `depth` objects deep. */
export function deepTimelineFields(depth) {
  const base = 1_700_000_000_000_000_000;
  const first = timelineLine({ sequence_id: 0, api_launch_timestamp_ns: base, completion_timestamp_ns: base + 1000 });
  const deep = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
  const second = timelineLine({ sequence_id: 1, api_launch_timestamp_ns: base + 2000, completion_timestamp_ns: base + 3000, metadata: 'DEEP' }).replace('"DEEP"', deep);
  return `${first}\n${second}\n`;
}

/** Case 10: sequence ids 0, 1.7e308 and 1.7e308 on two ranks: holes that do not fit a count. */
export function timelineHugeSequence() {
  const base = 1_700_000_000_000_000_000;
  const lines = [];
  for (const rank of [0, 1]) {
    for (const [k, sequence] of [0, 1.7e308].entries()) {
      lines.push(
        timelineLine({ rank, sequence_id: sequence, api_launch_timestamp_ns: base + k * 2000, completion_timestamp_ns: base + k * 2000 + 1000 }),
      );
    }
  }
  return `${lines.join('\n')}\n`;
}
