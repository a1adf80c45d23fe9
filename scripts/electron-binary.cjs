// The Electron binary's path, or null when it is not installed. Never requires 'electron':
// from Electron 43 on that downloads the binary on first use, which fails offline
// (TOOLCHAIN.md, gotcha 2). CommonJS so that both scripts/start.mjs and the Playwright
// launch test can load it.
const { existsSync, readFileSync } = require('node:fs');
const { dirname, join } = require('node:path');

function findElectronBinary() {
  try {
    const dir = dirname(require.resolve('electron/package.json'));
    const pathFile = join(dir, 'path.txt');
    if (!existsSync(pathFile)) return null;
    const binary = join(dir, 'dist', readFileSync(pathFile, 'utf8').trim());
    return existsSync(binary) ? binary : null;
  } catch {
    return null;
  }
}

module.exports = { findElectronBinary };
