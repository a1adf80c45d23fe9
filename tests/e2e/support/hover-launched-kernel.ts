import type { Locator, Page } from '@playwright/test';

/**
 * Moves the pointer along a GPU stream's lane (its lane-name label's middle), `step` pixels at a
 * time across the timeline canvas, until the tooltip names a kernel's launch (its ac2g flow).
 * The bars are on a canvas: hover is how a user finds them. Returns whether one was found; the
 * tooltip is left showing it.
 */
export async function hoverLaunchedKernel(
  page: Page,
  laneName: Locator,
  step: number,
): Promise<boolean> {
  const lane = (await laneName.boundingBox())!;
  const canvas = (await page.getByTestId('timeline-canvas').boundingBox())!;
  const tooltip = page.getByTestId('tooltip');
  for (let x = canvas.x + 1; x < canvas.x + canvas.width; x += step) {
    await page.mouse.move(x, lane.y + lane.height / 2);
    if ((await tooltip.isVisible()) && (await tooltip.getByTestId('tooltip-flow-from').count()) > 0)
      return true;
  }
  return false;
}
