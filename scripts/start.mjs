// `npm start [-- FILE... | --serve | --compare]`: the Electron app where its binary is
// installed, else the same renderer in serve mode on 127.0.0.1.
import { spawn } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const { findElectronBinary } = createRequire(import.meta.url)('./electron-binary.cjs');

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const forceServe = args.includes('--serve');
const rest = args.filter((arg) => arg !== '--serve');
const hasFile = rest.some((arg) => !arg.startsWith('-'));
const files = hasFile ? rest : [...rest, join(root, 'resources/demo/rollout_demo.pt')];

const electron = forceServe ? null : findElectronBinary();
let child;
if (electron) {
  child = spawn(electron, [root, ...rest], { stdio: 'inherit' });
} else {
  if (!forceServe) {
    console.log('Electron binary not installed here; starting serve mode instead (same UI in your browser).');
  }
  child = spawn(process.execPath, [join(root, 'out/main/cli.js'), 'serve', ...files], {
    stdio: 'inherit',
  });
}
child.on('exit', (code) => process.exit(code ?? 0));
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
