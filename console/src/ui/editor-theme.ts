import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { Compartment, EditorState, type Extension } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { tags } from '@lezer/highlight';
import { useComputedColorScheme } from '@mantine/core';
import { basicSetup } from 'codemirror';
import { useEffect, useRef, useState, type RefObject } from 'react';
import { CSP_NONCE } from '../csp-nonce';

// The look and the common setup of the console's code editors (CodeMirror 6): imported by the
// editors alone, which pages load lazily, so CodeMirror never weighs on the shell.

/** The editor's frame in Mantine's own colours, so it follows the console's scheme by itself. */
const frame = (dark: boolean) =>
  EditorView.theme(
    {
      '&': {
        backgroundColor: 'var(--mantine-color-body)',
        color: 'var(--mantine-color-text)',
        border: '1px solid var(--mantine-color-default-border)',
        borderRadius: 'var(--mantine-radius-sm)',
        fontSize: 'var(--mantine-font-size-sm)',
        maxHeight: '60vh',
      },
      // Room to write in from the start; past 60% of the window it scrolls.
      '.cm-content, .cm-gutter': { minHeight: '280px' },
      '&.cm-focused': { outline: '2px solid var(--mantine-primary-color-filled)' },
      '.cm-content': {
        fontFamily: 'var(--mantine-font-family-monospace)',
        caretColor: 'var(--mantine-color-text)',
      },
      '.cm-scroller': { overflow: 'auto', fontFamily: 'var(--mantine-font-family-monospace)' },
      '.cm-gutters': {
        backgroundColor: 'var(--mantine-color-default-hover)',
        color: 'var(--mantine-color-dimmed)',
        borderRight: '1px solid var(--mantine-color-default-border)',
      },
      '.cm-activeLine, .cm-activeLineGutter': { backgroundColor: 'var(--mantine-color-default-hover)' },
      '.cm-cursor': { borderLeftColor: 'var(--mantine-color-text)' },
      '&.cm-focused .cm-selectionBackground, .cm-selectionBackground, ::selection': {
        backgroundColor: 'var(--mantine-primary-color-light)',
      },
    },
    { dark },
  );

// CodeMirror's default highlighting is drawn for light backgrounds; on dark ones these colours
// (GitHub's dark palette) keep the contrast.
const darkHighlight = HighlightStyle.define(
  [
    { tag: [tags.keyword, tags.operatorKeyword, tags.modifier], color: '#ff7b72' },
    { tag: [tags.string, tags.special(tags.string), tags.regexp], color: '#a5d6ff' },
    { tag: [tags.number, tags.bool, tags.null, tags.atom], color: '#79c0ff' },
    { tag: [tags.comment, tags.lineComment, tags.blockComment], color: '#8b949e', fontStyle: 'italic' },
    { tag: [tags.function(tags.variableName), tags.function(tags.propertyName)], color: '#d2a8ff' },
    { tag: [tags.propertyName, tags.definition(tags.variableName)], color: '#ffa657' },
    { tag: tags.invalid, color: '#f85149' },
  ],
  { themeType: 'dark' },
);

const appearance = (dark: boolean): Extension =>
  dark ? [frame(true), syntaxHighlighting(darkHighlight)] : frame(false);

// An explicit tab stop tells checkers (axe) that the scrolling area holds a focusable element.
const contentAttributes = (label: string, invalid: boolean) =>
  EditorView.contentAttributes.of({ 'aria-label': label, tabindex: '0', 'aria-invalid': String(invalid) });

const editability = (readOnly: boolean) => [
  EditorState.readOnly.of(readOnly),
  EditorView.editable.of(!readOnly),
];

export interface CodeEditorOptions {
  value: string;
  onChange: (value: string) => void;
  /** Names the editor for assistive technology. */
  label: string;
  readOnly: boolean;
  invalid: boolean;
  /** The language and its helpers; read once, when the editor is made. */
  extensions: Extension;
}

/**
 * A CodeMirror editor in `host`, made once and kept in step with the options: the console's
 * colours (light or dark as the console), the page's CSP nonce, the label, read-only, and the
 * value (a value from outside replaces the text). Tab is left to the page, so a keyboard user can
 * leave the editor. Gives the view, for what an editor does beyond that.
 */
export function useCodeEditor(
  host: RefObject<HTMLDivElement | null>,
  { value, onChange, label, readOnly, invalid, extensions }: CodeEditorOptions,
): RefObject<EditorView | null> {
  const view = useRef<EditorView | null>(null);
  const [theme] = useState(() => new Compartment());
  const [editable] = useState(() => new Compartment());
  const [attributes] = useState(() => new Compartment());
  const changed = useRef(onChange);
  useEffect(() => {
    changed.current = onChange;
  });
  const dark = useComputedColorScheme('light') === 'dark';

  useEffect(() => {
    if (!host.current) return;
    const editor = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: value,
        extensions: [
          // Line numbers, history (undo), search, brackets, completion; Tab is left to the page.
          basicSetup,
          extensions,
          EditorView.cspNonce.of(CSP_NONCE),
          attributes.of(contentAttributes(label, invalid)),
          EditorView.lineWrapping,
          theme.of(appearance(dark)),
          editable.of(editability(readOnly)),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) changed.current(update.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = editor;
    return () => {
      editor.destroy();
      view.current = null;
    };
    // The editor is made once; the effects below keep it in step with the options.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    view.current?.dispatch({ effects: theme.reconfigure(appearance(dark)) });
  }, [theme, dark]);

  useEffect(() => {
    view.current?.dispatch({ effects: editable.reconfigure(editability(readOnly)) });
  }, [editable, readOnly]);

  useEffect(() => {
    view.current?.dispatch({ effects: attributes.reconfigure(contentAttributes(label, invalid)) });
  }, [attributes, label, invalid]);

  // A value from outside (the saved text loaded, a reset) replaces the text; the editor's own
  // changes come back equal and change nothing.
  useEffect(() => {
    const editor = view.current;
    if (!editor) return;
    const current = editor.state.doc.toString();
    if (current !== value) editor.dispatch({ changes: { from: 0, to: current.length, insert: value } });
  }, [value]);

  return view;
}
