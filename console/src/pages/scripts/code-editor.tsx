import { javascript } from '@codemirror/lang-javascript';
import { useRef, useState } from 'react';
import { useCodeEditor } from '../../ui/editor-theme';

interface CodeEditorProps {
  value: string;
  onChange: (value: string) => void;
  /** Names the editor for assistive technology. */
  label: string;
  readOnly?: boolean;
  invalid?: boolean;
}

/**
 * A JavaScript editor (CodeMirror 6), loaded with the script page only. Tab is left to the page,
 * so a keyboard user can leave the editor.
 */
export default function CodeEditor({
  value,
  onChange,
  label,
  readOnly = false,
  invalid = false,
}: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const [extensions] = useState(() => javascript());
  useCodeEditor(host, { value, onChange, label, readOnly, invalid, extensions });
  return <div ref={host} data-testid="code-editor" />;
}
