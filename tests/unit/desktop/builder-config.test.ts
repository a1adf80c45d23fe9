import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { load } from 'js-yaml';

const root = resolve(__dirname, '../../..');

interface BuilderConfig {
  appId: string;
  files: string[];
  extraResources: { from: string; to: string }[];
  fileAssociations: { ext: string }[];
  linux: { target: string[]; icon: string };
  mac: { target: string[]; icon: string };
  win: { target: string[]; icon: string };
}

describe('electron-builder config', () => {
  const config = load(readFileSync(resolve(root, 'electron-builder.yml'), 'utf8')) as BuilderConfig;

  it('builds AppImage and deb, dmg, nsis', () => {
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.mac.target).toEqual(['dmg']);
    expect(config.win.target).toEqual(['nsis']);
  });

  it('associates .pt and .jsonl files', () => {
    expect(config.fileAssociations.map((a) => a.ext).sort()).toEqual(['jsonl', 'pt']);
  });

  it('ships the built output only, the icon and the demo rollout the app opens', () => {
    expect(config.files).toContain('out/**/*');
    expect(config.files.some((f) => f.startsWith('src'))).toBe(false);
    for (const platform of [config.linux, config.mac, config.win]) {
      expect(existsSync(resolve(root, platform.icon))).toBe(true);
    }
    const demo = config.extraResources.find((r) => r.to === 'demo');
    expect(demo).toBeDefined();
    expect(existsSync(resolve(root, demo!.from, 'rollout_demo.pt'))).toBe(true);
    // main.ts opens process.resourcesPath/demo/rollout_demo.pt when packaged
    expect(readFileSync(resolve(root, 'src-main/main.ts'), 'utf8')).toContain(
      "'demo', 'rollout_demo.pt'",
    );
  });

  it('the package main and bin point into the built output', () => {
    const pkg = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as {
      main: string;
      bin: Record<string, string>;
      dependencies?: Record<string, string>;
    };
    expect(pkg.main).toBe('out/main/main.js');
    expect(pkg.bin['trace-explorer']).toBe('out/main/cli.js');
    // browser-only packages are bundled into the renderer: they must not bloat app.asar
    for (const name of ['react', 'react-dom', 'zustand', 'electron']) {
      expect(pkg.dependencies?.[name]).toBeUndefined();
    }
  });
});
