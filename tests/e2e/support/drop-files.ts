import { expect, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';

export interface DroppedFile {
  name: string;
  bytes: Uint8Array;
}

/**
 * Drops files on the window as a user's drag would (dragenter, dragover, drop). It first waits
 * until the page is ready (body[data-ready], set by the app's start-up effect, which runs after
 * the drop zone's listeners are on): `goto` resolves at the load event, which can come before
 * React's first commit, and a drop dispatched then is lost (CI saw "compare-view not found").
 */
export async function dropFiles(page: Page, files: readonly DroppedFile[]): Promise<void> {
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  const list = files.map((f) => ({ name: f.name, b64: Buffer.from(f.bytes).toString('base64') }));
  await page.evaluate((sent) => {
    const data = new DataTransfer();
    for (const f of sent)
      data.items.add(new File([Uint8Array.from(atob(f.b64), (c) => c.charCodeAt(0))], f.name));
    for (const type of ['dragenter', 'dragover', 'drop']) {
      window.dispatchEvent(
        new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }),
      );
    }
  }, list);
}

const FIXTURES = resolve(__dirname, '../../fixtures');

/** Drops fixture files (paths under tests/fixtures) under their own names, as dropFiles does. */
export async function dropFixtures(page: Page, ...paths: string[]): Promise<void> {
  await dropFiles(
    page,
    paths.map((p) => ({ name: basename(p), bytes: readFileSync(resolve(FIXTURES, p)) })),
  );
}
