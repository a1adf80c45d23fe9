import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The shared report's page (issue 47): the renderer bundled with its report host
// (src-renderer/report/report-main.tsx) as ONE script and one stylesheet, which
// src-main/report/report-html.ts inlines into each report (a file:// page loads nothing else).
// Built after electron-vite's three builds by `npm run build`, into out/report.
const here = dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  root: 'src-renderer',
  plugins: [react()],
  base: './',
  build: {
    outDir: resolve(here, 'out/report'),
    emptyOutDir: true,
    cssCodeSplit: false,
    assetsInlineLimit: Number.MAX_SAFE_INTEGER,
    modulePreload: false,
    // one script by design: the whole renderer, inlined into each report
    chunkSizeWarningLimit: 4096,
    rolldownOptions: {
      input: resolve(here, 'src-renderer/report/report-main.tsx'),
      output: {
        format: 'iife',
        entryFileNames: 'report.js',
        assetFileNames: 'report[extname]',
        codeSplitting: false,
      },
    },
  },
});
