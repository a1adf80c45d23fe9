import { useEffect, useState, type ReactNode } from 'react';

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
  label?: ReactNode;
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
 * Two overlapping sheets, drawn: the text glyph for it (U+29C9) is missing from common Linux
 * fonts and showed as an empty box there.
 */
export function CopyIcon() {
  return (
    <svg
      className="copy-icon"
      width="10"
      height="10"
      viewBox="0 0 10 10"
      aria-hidden="true"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.2"
    >
      <rect x="3.1" y="0.6" width="6.3" height="6.3" rx="1" />
      <path d="M6.9 8.4v0.2a0.8 0.8 0 0 1-0.8 0.8H1.4a0.8 0.8 0 0 1-0.8-0.8V3.9a0.8 0.8 0 0 1 0.8-0.8h0.2" />
    </svg>
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
