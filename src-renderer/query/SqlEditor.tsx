import { useEffect, useRef } from 'react';
import { EditorState } from '@codemirror/state';
import { EditorView, keymap, lineNumbers, highlightActiveLine } from '@codemirror/view';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { autocompletion, completionKeymap } from '@codemirror/autocomplete';
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { tags } from '@lezer/highlight';
import { sql, PostgreSQL } from '@codemirror/lang-sql';
import { SQL_TABLES } from '../../src-main/core/model/sql-schema';

/** colours by class, so the theme's CSS (query.css) sets them for light and dark alike */
const HIGHLIGHT = HighlightStyle.define([
  { tag: tags.keyword, class: 'sql-keyword' },
  { tag: [tags.string, tags.special(tags.string)], class: 'sql-string' },
  { tag: [tags.number, tags.bool, tags.null], class: 'sql-number' },
  { tag: tags.comment, class: 'sql-comment' },
  { tag: [tags.operator, tags.punctuation], class: 'sql-operator' },
  { tag: [tags.typeName, tags.standard(tags.name)], class: 'sql-type-name' },
]);

/** table -> its columns, for completion (the schema of docs/sql.md) */
const SCHEMA = Object.fromEntries(SQL_TABLES.map((t) => [t.name, t.columns.map((c) => c.name)]));

export interface SqlEditorHandle {
  setText(text: string): void;
  /** put the cursor at an offset (an error's position) and focus */
  focusAt(offset: number): void;
}

/**
 * CodeMirror 6 with SQL highlighting and completion of the tables and columns. The text is
 * the editor's own state; `onChange` reports it, Ctrl/Cmd+Enter runs.
 */
export function SqlEditor({
  initial,
  onChange,
  onRun,
  handle,
}: {
  initial: string;
  onChange: (text: string) => void;
  onRun: () => void;
  handle: React.MutableRefObject<SqlEditorHandle | null>;
}) {
  const host = useRef<HTMLDivElement>(null);
  const callbacks = useRef({ onChange, onRun });
  callbacks.current = { onChange, onRun };
  useEffect(() => {
    const view = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: initial,
        extensions: [
          lineNumbers(),
          history(),
          highlightActiveLine(),
          syntaxHighlighting(HIGHLIGHT),
          sql({ dialect: PostgreSQL, schema: SCHEMA, upperCaseKeywords: true }),
          autocompletion(),
          keymap.of([
            {
              key: 'Mod-Enter',
              run: () => {
                callbacks.current.onRun();
                return true;
              },
            },
            ...completionKeymap,
            ...defaultKeymap,
            ...historyKeymap,
          ]),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) callbacks.current.onChange(update.state.doc.toString());
          }),
          EditorView.contentAttributes.of({
            'aria-label': 'SQL query',
            'data-testid': 'sql-input',
          }),
        ],
      }),
    });
    handle.current = {
      setText: (text) =>
        view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } }),
      focusAt: (offset) => {
        const at = Math.max(0, Math.min(offset, view.state.doc.length));
        view.dispatch({ selection: { anchor: at }, scrollIntoView: true });
        view.focus();
      },
    };
    return () => {
      handle.current = null;
      view.destroy();
    };
    // the editor is made once; later text comes through the handle
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return <div className="sql-editor" ref={host} data-testid="sql-editor" />;
}
