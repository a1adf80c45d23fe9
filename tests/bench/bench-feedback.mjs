// How soon the app answers a user who starts or stops an open, in Debian's Chromium against
// serve mode, each figure beside its goal and a plain render of the same page measured in the
// same run (the '?' key to the shortcuts dialog: React, layout, nothing else), so a busy machine
// shows as a slow baseline, not as a slow app. The e2e specs check only the order of these
// signals (reading.spec.ts, serve-start.spec.ts, upload.spec.ts); the times are here.
import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { writeSlimeDump } from './slime-dump-writer.mjs';

const TOKEN = 'bench';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

export async function benchFeedback(root, data) {
  const cli = join(root, 'out/main/cli.js');
  // 30k samples with short token lists (serve-start.spec.ts's file): seconds to read
  const dump = join(data, 'feedback_30k.pt');
  if (!existsSync(dump)) writeSlimeDump(dump, Infinity, 150, 30_000);
  console.log(
    `\n== feedback in Chromium (serve mode), ${(statSync(dump).size / 1e6).toFixed(0)} MB dump, median of ${ROUNDS}; baseline: '?' to the shortcuts dialog on the same page`,
  );
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  try {
    const rows = { start: [], startBase: [], pick: [], cancel: [], render: [] };
    for (let round = 0; round < ROUNDS; round++) {
      // serve FILE: from the page's navigation to the named file's progress item, against the
      // same page of a server with no file showing its start page
      // servers of their own each round, on ports of their own: one stopped is never asked
      // again, and a cancelled upload's room is given back when its server sees the
      // connection go, which is not this bench's to wait for
      const namedPort = 4830 + round;
      const named = await serve(cli, namedPort, [dump]);
      try {
        rows.start.push(await loadUntil(browser, namedPort, '[data-testid=opening-tab]'));
      } finally {
        named.kill();
      }
      const emptyPort = 4820 + round;
      const empty = await serve(cli, emptyPort, []);
      const proxy = await holdingProxy(emptyPort, 4e6);
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      try {
        rows.startBase.push(await loadUntil(browser, emptyPort, '[data-testid=empty-state]'));
        await page.goto(`http://127.0.0.1:${proxy.port}/?token=${TOKEN}`);
        await page.waitForSelector('body[data-ready=true]');
        rows.render.push(await renderMs(page));
        // a pick: from the input's change to the progress item with its Cancel
        const shown = page.evaluate(inPage, 'pick');
        await page.locator('[data-testid=file-input]').setInputFiles(dump);
        rows.pick.push(await shown);
        // Cancel during the upload (held by the proxy: it cannot end on its own)
        // (attached: the stage's text may be empty at first, which Playwright calls hidden)
        await page.waitForSelector('[data-testid=opening-stage][data-stage=uploading]', {
          state: 'attached',
        });
        rows.cancel.push(await page.evaluate(inPage, 'cancel'));
      } finally {
        await page.close();
        await proxy.close();
        empty.kill();
      }
    }
    const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
    const render = median(rows.render);
    const line = (what, ms, goal, base, baseWhat) =>
      console.log(
        `${what}: ${ms.toFixed(0)} ms (goal < ${goal} ms); ${baseWhat} ${base.toFixed(0)} ms; ratio ${(ms / base).toFixed(2)}`,
      );
    line(
      'serve FILE, page load to its progress',
      median(rows.start),
      1500,
      median(rows.startBase),
      'baseline (no file, page load to the start page)',
    );
    line('a pick to its progress and Cancel', median(rows.pick), 300, render, 'baseline render');
    line(
      'Cancel during an upload to the item gone',
      median(rows.cancel),
      1000,
      render,
      'baseline render',
    );
  } finally {
    await browser.close();
  }
}

/** serve mode on `port` with `files`, once it answers. */
async function serve(cli, port, files) {
  const child = spawn(
    process.execPath,
    [cli, 'serve', '--port', String(port), '--token', TOKEN, ...files],
    { stdio: 'ignore' },
  );
  for (let tries = 0; ; tries++) {
    const up = await fetch(`http://127.0.0.1:${port}/?token=${TOKEN}`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return child;
    if (tries > 300 || child.exitCode !== null) throw new Error(`serve on ${port} did not start`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Milliseconds from a fresh page's navigation until `selector` shows (the page's own clock). */
async function loadUntil(browser, port, selector) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  try {
    await page.addInitScript((wanted) => {
      const check = () => {
        if (window.shownAt === undefined && document.querySelector(wanted))
          window.shownAt = performance.now();
      };
      // the document itself: at this point it has no element yet
      new MutationObserver(check).observe(document, {
        subtree: true,
        childList: true,
        attributes: true,
      });
    }, selector);
    await page.goto(`http://127.0.0.1:${port}/?token=${TOKEN}`);
    await page.waitForFunction(() => window.shownAt !== undefined, null, { timeout: 120_000 });
    return await page.evaluate(() => window.shownAt);
  } finally {
    await page.close();
  }
}

/**
 * In the page (a function passed as it is: the CSP forbids eval there), the page's own clock:
 * 'pick' from the file input's change to the progress item with its Cancel; 'cancel' from a
 * click on Cancel to the item gone; 'render' (the baseline) from '?' to the shortcuts dialog.
 */
async function inPage(kind) {
  const until = (done) =>
    new Promise((resolve) => {
      if (done()) return resolve(performance.now());
      const observer = new MutationObserver(() => {
        if (!done()) return;
        observer.disconnect();
        resolve(performance.now());
      });
      observer.observe(document.documentElement, {
        subtree: true,
        childList: true,
        attributes: true,
      });
    });
  const has = (selector) => document.querySelector(selector) !== null;
  if (kind === 'pick') {
    const picked = await new Promise((resolve) =>
      document.addEventListener('change', () => resolve(performance.now()), {
        capture: true,
        once: true,
      }),
    );
    const shown = await until(
      () => has('[data-testid=opening-tab]') && has('[data-testid=cancel-open]'),
    );
    return shown - picked;
  }
  const started = performance.now();
  if (kind === 'cancel') {
    document.querySelector('[data-testid=cancel-open]').click();
    return (await until(() => !has('[data-testid=opening-tab]'))) - started;
  }
  window.dispatchEvent(new KeyboardEvent('keydown', { key: '?' }));
  return (await until(() => has('[data-testid=shortcuts-dialog]'))) - started;
}

/** The baseline: '?' to the shortcuts dialog, then closed again. */
async function renderMs(page) {
  const ms = await page.evaluate(inPage, 'render');
  await page.keyboard.press('Escape');
  await page.waitForSelector('[data-testid=shortcuts-dialog]', { state: 'detached' });
  return ms;
}

/** A proxy to serve mode that holds each upload after `holdAfter` bytes (dropped when aborted). */
async function holdingProxy(targetPort, holdAfter) {
  const server = createServer((req, res) => {
    const upstream = request(
      {
        host: '127.0.0.1',
        port: targetPort,
        path: req.url,
        method: req.method,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    if (!req.url?.startsWith('/api/upload')) return void req.pipe(upstream);
    let passed = 0;
    let ended = false;
    req.on('data', (chunk) => {
      upstream.write(chunk);
      passed += chunk.length;
      if (passed >= holdAfter) req.pause();
    });
    req.on('end', () => {
      ended = true;
      upstream.end();
    });
    req.on('close', () => {
      if (!ended) upstream.destroy();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: server.address().port,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
