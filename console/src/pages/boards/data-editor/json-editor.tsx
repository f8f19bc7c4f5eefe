import { json } from '@codemirror/lang-json';
import { lintGutter, linter, type Diagnostic } from '@codemirror/lint';
import { Compartment, EditorSelection } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { useEffect, useImperativeHandle, useRef, useState, type Ref } from 'react';
import { useCodeEditor } from '../../../ui/editor-theme';
import type { DataProblem } from './data-problems';

/** What the page may do with the editor. */
export interface JsonEditorHandle {
  /** Selects `from`..`to`, scrolls it into view and puts the focus there. */
  select(from: number, to: number): void;
}

interface JsonEditorProps {
  value: string;
  onChange: (value: string) => void;
  /** The problems of a text, shown as you type (underlined, and marked in the gutter). */
  check: (text: string) => readonly DataProblem[];
  /** Names the editor for assistive technology. */
  label: string;
  readOnly?: boolean;
  invalid?: boolean;
  ref?: Ref<JsonEditorHandle>;
}

// Soon after a keystroke, not at each one: typing a value passes through many invalid texts.
const LINT_DELAY_MS = 150;

const diagnosticOf = ({ from, to, path, message }: DataProblem): Diagnostic => ({
  from,
  to,
  severity: 'error',
  message: path ? `${path}: ${message}` : message,
});

const linterOf = (check: (text: string) => readonly DataProblem[]) =>
  linter((view) => check(view.state.doc.toString()).map(diagnosticOf), { delay: LINT_DELAY_MS });

/**
 * A JSON editor (CodeMirror 6) that marks the problems `check` finds, styled as the script
 * editor. Loaded lazily: CodeMirror stays out of the pages that do not edit data.
 */
export default function JsonEditor({
  value,
  onChange,
  check,
  label,
  readOnly = false,
  invalid = false,
  ref,
}: JsonEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const [checker] = useState(() => new Compartment());
  const [extensions] = useState(() => [json(), lintGutter(), checker.of(linterOf(check))]);
  const view = useCodeEditor(host, { value, onChange, label, readOnly, invalid, extensions });

  // Another check (the widget's variant changed) marks the same text anew.
  useEffect(() => {
    view.current?.dispatch({ effects: checker.reconfigure(linterOf(check)) });
  }, [checker, check, view]);

  useImperativeHandle(
    ref,
    () => ({
      select(from, to) {
        const editor = view.current;
        if (!editor) return;
        const length = editor.state.doc.length;
        editor.dispatch({
          selection: EditorSelection.single(Math.min(from, length), Math.min(to, length)),
          effects: EditorView.scrollIntoView(Math.min(from, length), { y: 'center' }),
        });
        editor.focus();
      },
    }),
    [view],
  );

  return <div ref={host} data-testid="json-editor" />;
}
