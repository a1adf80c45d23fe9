import type { Page } from '@playwright/test';

/** Types `sql` into the Query view's editor in place of its text, and runs it (Ctrl+Enter). */
export async function typeQuery(page: Page, sql: string): Promise<void> {
  const input = page.getByTestId('sql-input');
  await input.click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Delete');
  await input.pressSequentially(sql);
  // completion may be open: Escape closes it, Ctrl+Enter runs
  await page.keyboard.press('Escape');
  await page.keyboard.press('Control+Enter');
}
