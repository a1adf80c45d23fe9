/**
 * The skia canvas, loaded on first use: a native module, so the other commands never pay for
 * loading it, and a platform without its prebuilt binary fails here with a coded error.
 */
export async function loadCanvas(
  path: string,
): Promise<typeof import('@napi-rs/canvas').createCanvas> {
  try {
    return (await import('@napi-rs/canvas')).createCanvas;
  } catch (error) {
    throw new Error(
      `${path}: cannot draw a PNG here, @napi-rs/canvas did not load (${error instanceof Error ? error.message : String(error)}) [picture/canvas]`,
    );
  }
}

/** A picture's window asked for: refused, naming the path, when it is empty or reversed. */
export function checkWindow(
  path: string,
  window: { startSec: number; endSec: number } | undefined,
): void {
  if (window && !(window.endSec > window.startSec)) {
    throw new Error(
      `${path}: the window ${window.startSec}-${window.endSec} is empty or reversed [picture/window]`,
    );
  }
}
