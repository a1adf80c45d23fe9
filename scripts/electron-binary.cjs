// Finding and fetching the Electron binary. Never requires 'electron': from Electron 43 on that
// downloads the binary on first use and throws offline. CommonJS so that scripts/start.mjs,
// scripts/electron-status.cjs and the Playwright launch test can all load it.
const { spawnSync } = require('node:child_process');
const { existsSync, readFileSync } = require('node:fs');
const { dirname, join } = require('node:path');

/** The electron package's folder, or null when it is not installed at all. */
function electronPackageDir() {
  try {
    return dirname(require.resolve('electron/package.json'));
  } catch {
    return null;
  }
}

/** The Electron binary's path, or null when it has not been downloaded (path.txt names it). */
function findElectronBinary() {
  const dir = electronPackageDir();
  if (!dir) return null;
  try {
    const pathFile = join(dir, 'path.txt');
    if (!existsSync(pathFile)) return null;
    const binary = join(dir, 'dist', readFileSync(pathFile, 'utf8').trim());
    return existsSync(binary) ? binary : null;
  } catch {
    return null;
  }
}

/** What a user types to fetch the binary again (electron's own bin). */
const RETRY_COMMAND = 'npx install-electron';

/**
 * Downloads the binary with Electron's own installer (electron/install.js, via @electron/get,
 * which honours ELECTRON_MIRROR, ELECTRON_CUSTOM_DIR and electron_config_cache). Its progress bar
 * shows when stderr is a terminal; otherwise its error text is kept for the message.
 * Returns { binary } or { error } saying why it failed.
 */
function installElectron() {
  const dir = electronPackageDir();
  if (!dir) return { error: 'the electron package is not installed (run npm install)' };
  const installer = join(dir, 'install.js');
  if (!existsSync(installer)) return { error: `Electron's installer is missing (${installer})` };
  const version = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version;
  console.log(`Downloading Electron ${version} with its own installer (once; ${RETRY_COMMAND})...`);
  const tty = Boolean(process.stderr.isTTY);
  const result = spawnSync(process.execPath, [installer], {
    stdio: ['ignore', 'inherit', tty ? 'inherit' : 'pipe'],
    encoding: 'utf8',
  });
  const binary = findElectronBinary();
  if (result.status === 0 && binary) return { binary };
  const detail = firstErrorLine(result.stderr) ?? (result.error ? result.error.message : null);
  const how = result.signal ? `stopped by ${result.signal}` : `exit code ${result.status}`;
  return { error: `Electron's installer failed (${how})${detail ? `: ${detail}` : tty ? ', see above' : ''}` };
}

/** The line of an installer's stderr that says what went wrong (skips stack frames). */
function firstErrorLine(stderr) {
  if (!stderr) return null;
  const lines = stderr.split('\n').map((line) => line.trim());
  return lines.find((line) => line && !line.startsWith('at ')) ?? null;
}

module.exports = { findElectronBinary, installElectron, RETRY_COMMAND };
