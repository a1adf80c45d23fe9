// Says, before the launch tests run, whether they can: printed so a skipped run says why.
const { findElectronBinary } = require('./electron-binary.cjs');

const binary = findElectronBinary();
console.log(
  binary
    ? `Electron binary found: ${binary}`
    : 'Electron binary not installed (npm install does not fetch it; `npx install-electron` does): the Electron launch tests are skipped.',
);
