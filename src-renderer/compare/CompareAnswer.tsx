import type { CompareResult, FileSummary } from '../../src-main/core/api/trace-api';
import { showRowsOf } from './show-rows';

/**
 * The question answered first, in plain sentences: why B took longer or shorter than A. A
 * figure that names samples is a link: it leaves compare and shows those rows of that file.
 */
export function CompareAnswer({
  result,
  fileA,
  fileB,
  onShowRows,
}: {
  result: CompareResult;
  fileA: FileSummary;
  fileB: FileSummary;
  /** (timeline) a linked figure clicked: the compare view shows its rows; else its file's tab */
  onShowRows?(side: 'a' | 'b', rowIds: number[], label: string, event: React.MouseEvent): void;
}) {
  const showRows = (side: 'a' | 'b', rowIds: number[], label: string, event: React.MouseEvent) =>
    onShowRows
      ? onShowRows(side, rowIds, label, event)
      : showRowsOf(side === 'a' ? fileA : fileB, rowIds, label);
  return (
    <section className="compare-answer" data-testid="compare-answer">
      {result.answer.map((sentence, i) => (
        <p key={i}>
          {sentence.map((part, j) =>
            part.rowIds && part.side ? (
              <button
                key={j}
                type="button"
                className="answer-link"
                title={`show ${part.side.toUpperCase()}'s rows ${part.rowIds.join(', ')}`}
                onClick={(event) => showRows(part.side!, part.rowIds!, part.text, event)}
              >
                {part.text}
              </button>
            ) : (
              <span key={j}>{part.text}</span>
            ),
          )}
        </p>
      ))}
      <p className="compare-windows">
        Windows: A {result.windows.a.own}. B {result.windows.b.own}.
      </p>
    </section>
  );
}
