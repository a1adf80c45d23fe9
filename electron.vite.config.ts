import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

// Inputs are explicit because our folders are not electron-vite's defaults; electron-vite
// overwrites build.rollupOptions, so they go in rolldownOptions (TOOLCHAIN.md, gotcha 3).
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rolldownOptions: {
        input: {
          main: resolve(__dirname, 'src-main/main.ts'),
          cli: resolve(__dirname, 'src-main/cli.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      rolldownOptions: {
        input: { preload: resolve(__dirname, 'src-main/preload/preload.ts') },
      },
    },
  },
  renderer: {
    root: 'src-renderer',
    plugins: [react()],
    build: {
      outDir: 'out/renderer',
      // the page parses and runs its bundle before it asks for anything: minified, the bundle
      // is ~40% of its size and the page ran it in ~half the time (`npm run bench firstrows`)
      minify: true,
      rolldownOptions: {
        input: resolve(__dirname, 'src-renderer/index.html'),
      },
    },
  },
});
