import { useEffect, useRef, useState, type RefObject } from 'react';
import { useCommand } from '../host/host-context';
import { elementPng, shownBackground } from './element-picture';
import { copyPng, pictureFileName, saveBlob } from './picture-output';
import { svgPicture } from './svg-picture';
import './picture.css';

type Action = 'copy-png' | 'save-png' | 'save-svg';

/**
 * The Picture ▾ menu of a view or a chart: Copy PNG, Save PNG…, and for an SVG chart Save SVG….
 * A PNG is `png()` when given (the timeline redraws itself at 2x), else the `target` element as
 * shown (elementPng); the SVG is the target's first svg with its styles written in. The view's
 * main menu (`command`) also answers the Copy Picture command (menu and Ctrl/Cmd+Alt+C).
 * `data-state` says when an action is done (or failed), for tests and for the eye.
 */
export function PictureMenu(props: {
  /** the file name, without extension */
  name: string;
  target?: RefObject<HTMLElement | null>;
  png?: () => Promise<Blob>;
  svg?: boolean;
  command?: boolean;
  /** a chart's: in its top-right corner; a view's: floated right at its top, text around it */
  corner?: 'chart' | 'view';
  testId?: string;
}) {
  const [open, setOpen] = useState(false);
  const [state, setState] = useState<'idle' | 'working' | 'done' | 'failed'>('idle');
  const [message, setMessage] = useState('');
  const [last, setLast] = useState<Action | null>(null);
  const root = useRef<HTMLDivElement>(null);
  const latest = useRef(props);
  latest.current = props;

  const run = async (action: Action) => {
    setOpen(false);
    setLast(action);
    setState('working');
    try {
      const { name, target, png, svg } = latest.current;
      if (action === 'save-svg') {
        const element = target?.current?.querySelector('svg');
        if (!svg || !element) throw new Error('this view has no SVG chart');
        const text = svgPicture(element, shownBackground(element));
        saveBlob(new Blob([text], { type: 'image/svg+xml' }), pictureFileName(name, 'svg'));
      } else {
        const blob = png
          ? await png()
          : target?.current
            ? await elementPng(target.current, shownBackground(target.current))
            : null;
        if (!blob) throw new Error('nothing to picture');
        if (action === 'copy-png') await copyPng(blob);
        else saveBlob(blob, pictureFileName(name, 'png'));
      }
      setState('done');
      setMessage(action === 'copy-png' ? 'Copied' : 'Saved');
    } catch (error) {
      setState('failed');
      setMessage(error instanceof Error ? error.message : String(error));
    }
  };

  useCommand((command) => {
    if (command === 'copy-picture' && latest.current.command) void run('copy-png');
  });

  useEffect(() => {
    if (!open) return;
    const close = (event: MouseEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    globalThis.addEventListener('mousedown', close);
    return () => globalThis.removeEventListener('mousedown', close);
  }, [open]);

  const testId = props.testId ?? 'picture-menu';
  return (
    <div
      className={`menu-button picture-menu${props.corner ? ` picture-corner ${props.corner}-corner` : ''}`}
      ref={root}
      data-picture-skip=""
      data-testid={testId}
      data-state={state}
      data-action={last ?? ''}
    >
      <button
        type="button"
        className="button small"
        title={state === 'failed' ? message : 'Copy or save a picture of this view (2x pixels)'}
        aria-haspopup="menu"
        aria-expanded={open}
        data-testid={`${testId}-button`}
        onClick={() => setOpen(!open)}
      >
        Picture ▾{state === 'done' && <span className="picture-note"> ✓ {message}</span>}
        {state === 'failed' && <span className="picture-note failed"> ✗</span>}
      </button>
      {open && (
        <div className="menu-popup" role="menu">
          <button type="button" role="menuitem" onClick={() => void run('copy-png')}>
            Copy PNG
          </button>
          <button type="button" role="menuitem" onClick={() => void run('save-png')}>
            Save PNG…
          </button>
          {props.svg && (
            <button type="button" role="menuitem" onClick={() => void run('save-svg')}>
              Save SVG…
            </button>
          )}
        </div>
      )}
    </div>
  );
}
