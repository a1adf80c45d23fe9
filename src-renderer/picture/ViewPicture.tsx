import { useRef, type ReactNode } from 'react';
import { PictureMenu } from './PictureMenu';

/**
 * A view with its Picture menu floated in its top-right corner: the view's root element, which
 * the picture is of, and the menu that also answers Copy Picture (Ctrl/Cmd+Alt+C). Each view
 * passes only what differs: its picture's name, its class and its test id.
 */
export function ViewPicture({
  name,
  className,
  testId,
  data,
  children,
}: {
  /** the picture's file name, without extension */
  name: string;
  className: string;
  testId: string;
  /** the view's own state as `data-*` attributes (what e2e waits on), keys without `data-` */
  data?: Record<string, string | boolean>;
  children: ReactNode;
}) {
  const root = useRef<HTMLDivElement>(null);
  const attributes = Object.fromEntries(
    Object.entries(data ?? {}).map(([key, value]) => [`data-${key}`, String(value)]),
  );
  return (
    <div className={`${className} picture-host`} data-testid={testId} {...attributes} ref={root}>
      <PictureMenu name={name} target={root} command corner="view" testId="view-picture" />
      {children}
    </div>
  );
}
