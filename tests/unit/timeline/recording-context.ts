import type { DrawContext } from '../../../src-renderer/timeline/draw-timeline';

export type DrawCall =
  | { op: 'fillRect'; x: number; y: number; w: number; h: number; fill: unknown; alpha: number }
  | { op: 'strokeRect'; x: number; y: number; w: number; h: number; stroke: unknown }
  | { op: 'fillText'; text: string; x: number; y: number; width: number; fill: unknown }
  | { op: 'path'; name: string; args: number[] };

/**
 * A fake 2D context that records what is drawn, with the state (fill, stroke, alpha) each call
 * was made under. Text is 6 px per character, so label fitting is predictable.
 */
export function recordingContext(): { ctx: DrawContext; calls: DrawCall[] } {
  const calls: DrawCall[] = [];
  const state = {
    fillStyle: '#000' as unknown,
    strokeStyle: '#000' as unknown,
    lineWidth: 1,
    globalAlpha: 1,
    font: '',
    textAlign: 'start',
    textBaseline: 'alphabetic',
  };
  const path =
    (name: string) =>
    (...args: number[]) =>
      calls.push({ op: 'path', name, args });
  const ctx = {
    ...state,
    clearRect: () => {},
    fillRect(x: number, y: number, w: number, h: number) {
      calls.push({ op: 'fillRect', x, y, w, h, fill: this.fillStyle, alpha: this.globalAlpha });
    },
    strokeRect(x: number, y: number, w: number, h: number) {
      calls.push({ op: 'strokeRect', x, y, w, h, stroke: this.strokeStyle });
    },
    fillText(text: string, x: number, y: number) {
      calls.push({ op: 'fillText', text, x, y, width: text.length * 6, fill: this.fillStyle });
    },
    measureText: (text: string) => ({ width: text.length * 6 }),
    beginPath: () => {},
    closePath: () => {},
    moveTo: path('moveTo'),
    lineTo: path('lineTo'),
    bezierCurveTo: path('bezierCurveTo'),
    rect: path('rect'),
    arc: path('arc'),
    fill: () => calls.push({ op: 'path', name: 'fill', args: [] }),
    stroke: () => calls.push({ op: 'path', name: 'stroke', args: [] }),
    clip: () => {},
    save: () => {},
    restore: () => {},
    setLineDash: () => {},
    createLinearGradient: () => ({ addColorStop: () => {} }),
  };
  return { ctx: ctx as unknown as DrawContext, calls };
}
