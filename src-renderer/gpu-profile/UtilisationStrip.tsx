import type { Utilisation } from '../../src-main/core/model/gpu-profile';
import { KIND_COLOURS } from './kind-colours';

/** GPU utilisation over time: a bar per bin, its height the share of the bin a kernel ran. */
export function UtilisationStrip({
  utilisation,
  label,
}: {
  utilisation: Utilisation;
  label: string;
}) {
  const n = utilisation.busy.length;
  if (n === 0) return <div className="muted">no kernels</div>;
  const mean = utilisation.busy.reduce((s, b) => s + b, 0) / n;
  return (
    <svg
      className="gpu-strip"
      viewBox={`0 0 ${n} 20`}
      preserveAspectRatio="none"
      role="img"
      aria-label={`${label}: GPU busy ${Math.round(mean * 100)}% on average`}
      data-testid="gpu-utilisation"
    >
      <rect x={0} y={0} width={n} height={20} fill="var(--row-alt)" />
      {utilisation.busy.map((busy, i) =>
        busy > 0 ? (
          <rect
            key={i}
            x={i}
            y={20 - 20 * busy}
            width={1}
            height={20 * busy}
            fill={KIND_COLOURS.computation}
          />
        ) : null,
      )}
    </svg>
  );
}
