import { useEffect, useRef, useState } from 'react';
import { deltaColour, tokenAt, type StripToken } from './token-strip-model';

const STRIP_PX = 28;
const SIDE_PX = 10;

/**
 * Δ log p per response token as one strip of coloured cells (red: the trainer finds the token
 * likelier than SGLang did, blue: less), advantages and entropy as thin strips beside it; the
 * token under the pointer is named with its values.
 */
export function TokenStrip({ tokens }: { tokens: StripToken[] }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [hover, setHover] = useState<StripToken | null>(null);
  const width = 300;
  useEffect(() => {
    const c = canvas.current;
    const ctx = c?.getContext('2d');
    if (!c || !ctx) return;
    const dpr = window.devicePixelRatio || 1;
    const height = STRIP_PX + 2 * SIDE_PX + 4;
    c.width = width * dpr;
    c.height = height * dpr;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, width, height);
    const cell = width / Math.max(1, tokens.length);
    const maxAdv = Math.max(1e-9, ...tokens.map((t) => Math.abs(t.advantage ?? 0)));
    const maxEnt = Math.max(1e-9, ...tokens.map((t) => t.entropy ?? 0));
    tokens.forEach((t, k) => {
      const x = k * cell;
      const w = Math.max(cell, 1);
      ctx.fillStyle = deltaColour(t);
      ctx.fillRect(x, 0, w, STRIP_PX);
      if (t.advantage !== null) {
        const a = Math.abs(t.advantage) / maxAdv;
        ctx.fillStyle =
          t.advantage >= 0
            ? `rgba(22,163,74,${0.2 + 0.8 * a})`
            : `rgba(202,138,4,${0.2 + 0.8 * a})`;
        ctx.fillRect(x, STRIP_PX + 2, w, SIDE_PX);
      }
      if (t.entropy !== null) {
        ctx.fillStyle = `rgba(124,58,237,${0.1 + 0.9 * (t.entropy / maxEnt)})`;
        ctx.fillRect(x, STRIP_PX + SIDE_PX + 4, w, SIDE_PX);
      }
    });
  }, [tokens]);
  return (
    <div className="token-strip" data-testid="token-strip" data-tokens={tokens.length}>
      <canvas
        ref={canvas}
        style={{ width, height: STRIP_PX + 2 * SIDE_PX + 4 }}
        data-testid="token-strip-canvas"
        onMouseMove={(e) => {
          const rect = e.currentTarget.getBoundingClientRect();
          const k = tokenAt(e.clientX - rect.left, rect.width, tokens.length);
          setHover(k === null ? null : tokens[k]);
        }}
        onMouseLeave={() => setHover(null)}
      />
      <div className="muted token-strip-legend">
        Δ log p (red: trainer higher, blue: lower) · advantage · entropy
      </div>
      <div className="token-strip-hover" data-testid="token-strip-hover">
        {hover === null
          ? 'point at a token'
          : `token ${hover.index}: Δ ${hover.delta.toFixed(4)} (ratio ${Math.exp(hover.delta).toFixed(3)}), trainer ${hover.trainer.toFixed(4)}, SGLang ${hover.server.toFixed(4)}` +
            (hover.advantage !== null ? `, advantage ${hover.advantage.toFixed(3)}` : '') +
            (hover.entropy !== null ? `, entropy ${hover.entropy.toFixed(3)}` : '') +
            (hover.masked ? '' : ' (outside the loss mask)')}
      </div>
    </div>
  );
}
