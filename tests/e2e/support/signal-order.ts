import type { Page } from '@playwright/test';

/** A signal's first showing: its name and the opening stage the page said at that moment. */
export interface SignalSeen {
  name: string;
  /** the first opening item's data-stage then (uploading, reading, ...), or null: none shown */
  stage: string | null;
}

type Signals = Record<string, string>;

/**
 * In the page: notes each signal (a selector) the first time it matches, in the order they
 * show, with the opening stage then. Checked on every DOM change (a MutationObserver), so an
 * order is the page's own, whatever the machine's speed: what a test asserts instead of a
 * clock. Signals that show in the same change are noted in the order they are listed.
 */
function watchSignals(signals: Signals): void {
  const seen: SignalSeen[] = [];
  (window as unknown as { signalsSeen: SignalSeen[] }).signalsSeen = seen;
  const check = () => {
    for (const [name, selector] of Object.entries(signals)) {
      if (seen.some((s) => s.name === name) || !document.querySelector(selector)) continue;
      const stage = document.querySelector<HTMLElement>('[data-testid=opening-stage]');
      seen.push({ name, stage: stage?.dataset.stage ?? null });
    }
  };
  check();
  // the document itself: before a page loads it has no element yet
  new MutationObserver(check).observe(document, {
    subtree: true,
    childList: true,
    attributes: true,
    characterData: true,
  });
}

/** Watches `signals` from now on in the page as it is. */
export async function watchSignalsNow(page: Page, signals: Signals): Promise<void> {
  await page.evaluate(watchSignals, signals);
}

/** Watches `signals` from the start of every page loaded next (before the app's first render). */
export async function watchSignalsFromLoad(page: Page, signals: Signals): Promise<void> {
  await page.addInitScript(watchSignals, signals);
}

/** The signals seen so far, in the order they first showed. */
export async function signalsSeen(page: Page): Promise<SignalSeen[]> {
  return page.evaluate(() => (window as unknown as { signalsSeen: SignalSeen[] }).signalsSeen);
}

/** The names of the signals seen so far, in order. */
export async function signalOrder(page: Page): Promise<string[]> {
  return (await signalsSeen(page)).map((s) => s.name);
}
