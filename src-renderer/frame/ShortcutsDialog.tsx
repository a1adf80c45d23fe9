import { useEffect } from 'react';
import { GLOSSARY } from './glossary';

const OPEN_KEYS = 'Ctrl/Cmd + O';

export const SHORTCUTS: [string, string][] = [
  [OPEN_KEYS, 'Open files'],
  ['Ctrl/Cmd + Alt + C', 'Copy a picture of the view (PNG, 2x pixels)'],
  ['Ctrl/Cmd + wheel, pinch', 'Zoom around the pointer'],
  ['Wheel', 'Scroll rows'],
  ['Shift + wheel, drag', 'Pan in time'],
  ['W / S', 'Zoom in / out at the pointer (faster while held)'],
  ['Drag over the time axis', 'Zoom to that range'],
  ['A / D', 'Pan left / right'],
  ['F', 'Fit the selection (all when nothing is selected)'],
  ['0', 'Fit all'],
  ['↑ / ↓', 'Previous / next row'],
  ['← / →', 'Previous / next item of the selected row'],
  ['Enter', 'Expand or collapse the selected row'],
  ['Escape', 'Close details, clear selection'],
  ['/', 'Search'],
  ['?', 'This list'],
];

/** Help > Keyboard Shortcuts, also on "?": the keys, and the words the answers use. */
export function ShortcutsDialog({
  onClose,
  opens = true,
}: {
  onClose: () => void;
  /** whether the page opens files (a shared report does not): else Ctrl/Cmd+O is not listed */
  opens?: boolean;
}) {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  return (
    <div className="modal-backdrop" onClick={onClose}>
      <div
        className="modal"
        role="dialog"
        aria-label="Keyboard shortcuts"
        data-testid="shortcuts-dialog"
        onClick={(event) => event.stopPropagation()}
      >
        <h2>Keyboard shortcuts</h2>
        <table className="shortcuts">
          <tbody>
            {SHORTCUTS.filter(([keys]) => opens || keys !== OPEN_KEYS).map(([keys, what]) => (
              <tr key={keys}>
                <td>
                  <kbd>{keys}</kbd>
                </td>
                <td>{what}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <h2>Glossary</h2>
        <dl className="glossary" data-testid="glossary">
          {GLOSSARY.map(([word, meaning]) => (
            <div key={word} data-word={word}>
              <dt>{word}</dt>
              <dd>{meaning}</dd>
            </div>
          ))}
        </dl>
        <button type="button" className="button" onClick={onClose}>
          Close
        </button>
      </div>
    </div>
  );
}
