// Says, before the launch tests run, whether they can: printed so a skipped run says why.
const { findElectronBinary } = require('./electron-binary.cjs');

const binary = findElectronBinary();
console.log(
  binary
    ? `Electron binary found: ${binary}`
    : 'Electron binary not installed (it downloads from outside the npm registry): the Electron launch tests are skipped here.',
);
