// Where the CPU of an open went, for the bench's figures: each thread of serve mode's process
// and the Chromium that shows it, read from /proc (Linux; elsewhere nothing is printed). On two
// cores the file's two reading threads, V8's own threads (compiling and collecting for both)
// and the browser share the machine, so a wall-clock figure follows their sum.
import { existsSync, readdirSync, readFileSync } from 'node:fs';

const TICK_MS = 1000 / 100; // USER_HZ: /proc counts CPU time in hundredths of a second

function cpuMsOf(statText) {
  const fields = statText.slice(statText.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS; // utime + stime
}

function readOr(path, fallback) {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return fallback;
  }
}

/**
 * Polls a process's threads until stopped: a thread that ends before then (a file's helper)
 * keeps the last CPU time it was seen with.
 */
export function watchThreads(pid, everyMs = 100) {
  const seen = new Map();
  const poll = () => {
    let tids = [];
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      return;
    }
    for (const tid of tids) {
      const stat = readOr(`/proc/${pid}/task/${tid}/stat`, null);
      if (stat !== null) seen.set(Number(tid), Math.max(seen.get(Number(tid)) ?? 0, cpuMsOf(stat)));
    }
  };
  if (!existsSync('/proc/self/task')) return { stop: () => null };
  poll();
  const timer = setInterval(poll, everyMs);
  return {
    /** CPU seconds: the main thread, the two busiest others (a file's worker and its helper), the rest */
    stop() {
      clearInterval(timer);
      poll();
      const main = seen.get(pid) ?? 0;
      const others = [...seen]
        .filter(([tid]) => tid !== pid)
        .map(([, ms]) => ms)
        .sort((a, b) => b - a);
      const reading = others.slice(0, 2);
      const rest = others.slice(2).reduce((a, b) => a + b, 0);
      return { main: main / 1000, reading: reading.map((ms) => ms / 1000), rest: rest / 1000 };
    },
  };
}

/** CPU seconds used so far by every Chromium process on the machine (the bench runs one). */
export function chromiumCpuSeconds() {
  if (!existsSync('/proc/self/stat')) return null;
  let ms = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readOr(`/proc/${entry}/stat`, '');
    if (/^\d+ \((chromium|chrome)/.test(stat)) ms += cpuMsOf(stat);
  }
  return ms / 1000;
}

/** One line: where an open's CPU went (null parts left out). */
export function cpuSplitText(threads, chromium) {
  if (threads === null) return 'CPU split: not measured (no /proc)';
  const parts = [
    `the file's two reading threads ${threads.reading.map((s) => s.toFixed(2)).join(' and ')} s`,
    `V8's and libuv's threads ${threads.rest.toFixed(2)} s`,
    `serve mode's main thread ${threads.main.toFixed(2)} s`,
    ...(chromium === null ? [] : [`Chromium ${chromium.toFixed(2)} s`]),
  ];
  const total =
    threads.main + threads.rest + threads.reading.reduce((a, b) => a + b, 0) + (chromium ?? 0);
  return `CPU from the page's open to ready: ${parts.join(', ')}; ${total.toFixed(2)} s in all`;
}
