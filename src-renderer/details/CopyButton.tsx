import { useEffect, useState } from 'react';

/** A small button that puts text on the clipboard and says so for a moment. */
export function CopyButton({
  text,
  label = 'Copy',
  title,
  className = '',
  testId,
}: {
  /** computed on click: a large JSON is built only when someone wants it */
  text: () => string;
  label?: string;
  title?: string;
  className?: string;
  testId?: string;
}) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 1200);
    return () => clearTimeout(timer);
  }, [state]);
  return (
    <button
      type="button"
      className={`button small copy-button ${className}`}
      title={title}
      data-testid={testId}
      data-copied={state === 'copied' ? 'true' : undefined}
      onClick={(event) => {
        event.stopPropagation();
        void copyToClipboard(text()).then((ok) => setState(ok ? 'copied' : 'failed'));
      }}
    >
      {state === 'copied' ? '✓' : state === 'failed' ? '✗' : label}
    </button>
  );
}

/**
 * The async clipboard needs a secure context (Electron, or serve mode on 127.0.0.1); the old
 * execCommand path covers a browser reaching serve mode another way.
 */
export async function copyToClipboard(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    // the deprecated path is the point: it works where the async clipboard is refused
    const ok = document.execCommand('copy');
    area.remove();
    return ok;
  }
}
