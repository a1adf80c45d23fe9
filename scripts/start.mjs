// `npm start [-- FILE... | --serve | --compare]`: the Electron app; where its binary is missing it
// is downloaded first with Electron's own installer. Only when that fails (offline, blocked,
// unsupported platform) does the same renderer start in serve mode on 127.0.0.1, saying why.
import { spawn } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const { findElectronBinary, installElectron, RETRY_COMMAND } = createRequire(import.meta.url)(
  './electron-binary.cjs',
);

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const forceServe = args.includes('--serve');
const rest = args.filter((arg) => arg !== '--serve');
const hasFile = rest.some((arg) => !arg.startsWith('-'));
const files = hasFile ? rest : [...rest, join(root, 'resources/demo/rollout_demo.pt')];

function electronOrWhyNot() {
  if (forceServe) return { error: null };
  const found = findElectronBinary();
  if (found) return { binary: found };
  if (process.env.TRACE_EXPLORER_NO_DOWNLOAD) {
    return { error: 'the Electron binary is not installed and TRACE_EXPLORER_NO_DOWNLOAD is set' };
  }
  return installElectron();
}

const electron = electronOrWhyNot();
let child;
if (electron.binary) {
  child = spawn(electron.binary, [root, ...rest], { stdio: 'inherit' });
} else {
  if (electron.error) {
    console.log(
      `Cannot start the desktop app: ${electron.error}.\n` +
        `Starting serve mode instead (the same UI in your browser). To retry the download: ${RETRY_COMMAND}` +
        ' (behind a proxy or offline mirror, set ELECTRON_MIRROR), then npm start.',
    );
  }
  child = spawn(process.execPath, [join(root, 'out/main/cli.js'), 'serve', ...files], {
    stdio: 'inherit',
  });
}
child.on('exit', (code) => process.exit(code ?? 0));
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
