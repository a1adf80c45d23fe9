import type { ReactNode } from 'react';
import { elideMiddle, percentText } from './elide-middle';

/** the longest name an opening item shows: a long one is cut in its middle */
const NAME_CHARS = 36;

/**
 * One thing still opening, in the top bar: its name, a bar of the bytes read, what it is doing,
 * and Cancel. A file being opened and a run still opening (its files counted inside it) look
 * and behave alike; each keeps its own test ids.
 */
export function OpeningItem(props: {
  /** the tab's kind label ("Run"), when it has one */
  format?: string;
  name: string;
  title?: string;
  bytesRead: number;
  bytesTotal: number;
  progressLabel: string;
  /** what it is doing, beside the bar */
  children: ReactNode;
  onCancel: () => void;
  className?: string;
  testIds: { item: string; cancel: string };
}) {
  const { format, name, bytesRead, bytesTotal, testIds } = props;
  return (
    <div
      className={`tab opening${props.className ? ` ${props.className}` : ''}`}
      data-testid={testIds.item}
      title={props.title ?? name}
    >
      {format && <span className="tab-format">{format}</span>}
      <span className="tab-name whole" data-testid="opening-name">
        {elideMiddle(name, NAME_CHARS)}
      </span>
      <progress max={Math.max(1, bytesTotal)} value={bytesRead} aria-label={props.progressLabel} />
      <span className="tab-percent" data-testid="opening-percent">
        {percentText(bytesRead, bytesTotal)}
      </span>
      {props.children}
      <button
        type="button"
        className="button small"
        data-testid={testIds.cancel}
        onClick={props.onCancel}
      >
        Cancel
      </button>
    </div>
  );
}
