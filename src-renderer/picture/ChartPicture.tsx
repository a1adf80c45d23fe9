import { useRef, type ReactNode } from 'react';
import { PictureMenu } from './PictureMenu';

/**
 * A chart with its Picture menu in the corner: PNG of the chart as shown (title, axes, legend)
 * and its SVG. Wraps the chart from outside, so a chart component needs no change.
 */
export function ChartPicture({ name, children }: { name: string; children: ReactNode }) {
  const host = useRef<HTMLDivElement>(null);
  return (
    <div className="chart-picture" ref={host}>
      {children}
      <PictureMenu name={name} target={host} svg corner="chart" testId="chart-picture" />
    </div>
  );
}
