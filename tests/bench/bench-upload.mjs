// A picked file in serve mode, from the pick to its rows, in Debian's Chromium: how long, the
// page's longest task meanwhile (PerformanceObserver 'longtask'), and the server's peak memory
// (VmHWM). Run against several builds side by side (each a checkout with `npm run build` done):
//   node --experimental-websocket tests/bench/bench-upload.mjs [MB] ROOT [ROOT...]   (Node 20)
// e.g. this checkout against a worktree of an earlier commit. The dump is written once to /tmp.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeSlimeDump } from './slime-dump-writer.mjs';

const args = process.argv.slice(2);
const mb = /^\d+$/.test(args[0] ?? '') ? Number(args.shift()) : 200;
const roots = args.length > 0 ? args : [process.cwd()];
const path = `/tmp/trace-explorer-bench-upload-${mb}mb.pt`;
if (!existsSync(path)) writeSlimeDump(path, mb * 1e6);
const size = statSync(path).size;
console.log(`dump: ${path}, ${(size / 1024 ** 2).toFixed(1)} MiB`);

const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
const results = new Map(roots.map((root) => [root, []]));
for (let round = 0; round < rounds; round++) {
  // builds take turns, so a busy moment of the machine does not fall on one build only
  for (const root of roots) results.get(root).push(await measure(root, 5440 + round));
}
for (const [root, runs] of results) {
  console.log(`\n${root}`);
  for (const run of runs) console.log('  ', JSON.stringify(run));
}

/**
 * Chromium driven over its own DevTools protocol, without Playwright: Playwright enables the
 * network domain, whose report of a 200 MB request body (as escaped JSON) is longer than a
 * string may be. Here no domain is enabled that reports request bodies.
 */
async function launchPage(debugPort) {
  const browser = spawn(
    '/usr/lib/chromium/chromium',
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--no-first-run',
      '--window-size=1280,800',
      `--remote-debugging-port=${debugPort}`,
      `--user-data-dir=/tmp/trace-explorer-bench-upload-profile-${debugPort}`,
      'about:blank',
    ],
    { stdio: 'ignore' },
  );
  let target;
  for (let tries = 0; !target; tries++) {
    try {
      const list = await (await fetch(`http://127.0.0.1:${debugPort}/json/list`)).json();
      target = list.find((t) => t.type === 'page');
    } catch (error) {
      if (tries > 100) throw error;
    }
    if (!target) await new Promise((r) => setTimeout(r, 100));
  }
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.onopen = resolve;
    socket.onerror = reject;
  });
  let nextId = 0;
  const waiting = new Map();
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    const pending = waiting.get(message.id);
    if (!pending) return;
    waiting.delete(message.id);
    if (message.error) pending.reject(new Error(message.error.message));
    else pending.resolve(message.result);
  };
  const send = (method, params = {}) =>
    new Promise((resolve, reject) => {
      const id = ++nextId;
      waiting.set(id, { resolve, reject });
      socket.send(JSON.stringify({ id, method, params }));
    });
  const evaluate = async (expression) => {
    const { result, exceptionDetails } = await send('Runtime.evaluate', {
      expression,
      awaitPromise: true,
      returnByValue: true,
    });
    if (exceptionDetails) throw new Error(exceptionDetails.exception?.description);
    return result.value;
  };
  return {
    send,
    evaluate,
    close: () => {
      socket.close();
      browser.kill();
    },
  };
}

/** A promise, in the page, that resolves (to performance.now()) once `selector` matches / not. */
function waitIn(selector, present) {
  return `new Promise((resolve) => {
    const check = () => (!!document.querySelector(${JSON.stringify(selector)}) === ${present}
      ? resolve(performance.now()) : setTimeout(check, 50));
    check();
  })`;
}

async function measure(root, port) {
  const server = spawn(
    process.execPath,
    [join(root, 'out/main/cli.js'), 'serve', '--port', String(port), '--token', 'bench'],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  server.on('exit', (code, signal) => {
    if (!server.killed) console.log(`serve exited: ${code ?? signal}`);
  });
  const page = await launchPage(port + 100);
  try {
    await page.send('Page.enable');
    await page.send('Page.addScriptToEvaluateOnNewDocument', {
      source: `window.benchTasks = [];
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) window.benchTasks.push([e.startTime, e.duration]);
        }).observe({ type: 'longtask', buffered: true });`,
    });
    for (let tries = 0; ; tries++) {
      const { errorText } = await page.send('Page.navigate', {
        url: `http://127.0.0.1:${port}/?token=bench`,
      });
      if (!errorText) break;
      if (tries > 50) throw new Error(errorText);
      await new Promise((r) => setTimeout(r, 200));
    }
    await page.evaluate(waitIn('[data-testid=empty-state]', true));
    const { root: document } = await page.send('DOM.getDocument');
    const { nodeId } = await page.send('DOM.querySelector', {
      nodeId: document.nodeId,
      selector: '[data-testid=file-input]',
    });
    const pickedAt = await page.evaluate('performance.now()');
    // Chromium reads the file itself, as when a user picks it
    await page.send('DOM.setFileInputFiles', { files: [path], nodeId });
    const rowsAt = await page.evaluate(waitIn('[data-testid=timeline-row][data-bars]', true));
    const wholeAt = await page.evaluate(waitIn('[data-testid=opening-tab]', false));
    const tasks = await page.evaluate(
      `window.benchTasks.filter(([s]) => s >= ${pickedAt} && s < ${rowsAt}).map(([, d]) => d)`,
    );
    // this build's upload, where it measures one (performance.measure 'upload NAME')
    const upload = await page.evaluate(`(() => {
      const m = performance.getEntriesByType('measure').find((e) => e.name.startsWith('upload '));
      return m ? [m.startTime, m.startTime + m.duration] : null;
    })()`);
    const duringUpload = upload
      ? await page.evaluate(
          `window.benchTasks.filter(([s, d]) => s < ${upload[1]} && s + d > ${upload[0]}).map(([, d]) => d)`,
        )
      : null;
    const status = readFileSync(`/proc/${server.pid}/status`, 'utf8');
    const hwmMb = Number(/VmHWM:\s+(\d+)/.exec(status)[1]) / 1024;
    return {
      rowsMs: Math.round(rowsAt - pickedAt),
      wholeMs: Math.round(wholeAt - pickedAt),
      // between the pick and the first rows
      longestTaskMs: Math.round(Math.max(0, ...tasks)),
      longTasks: tasks.length,
      longTaskTotalMs: Math.round(tasks.reduce((a, b) => a + b, 0)),
      uploadMs: upload ? Math.round(upload[1] - upload[0]) : null,
      longestDuringUploadMs: duringUpload ? Math.round(Math.max(0, ...duringUpload)) : null,
      serverPeakMb: Math.round(hwmMb),
    };
  } finally {
    page.close();
    server.kill();
  }
}
