import { css } from '@codemirror/lang-css';
import { html } from '@codemirror/lang-html';
import { javascript } from '@codemirror/lang-javascript';
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import type { Extension } from '@codemirror/state';
import { tags } from '@lezer/highlight';
import { Stack, Tabs, Text, Title } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import type { CustomCode } from '../../../../../src/shared/web-content';
import { useCodeEditor } from '../../../ui/editor-theme';

type Part = keyof CustomCode;

// CodeMirror's default colours for some HTML and CSS tokens fall short of WCAG's contrast on a
// light background; these (GitHub's light palette) do not. Dark editors keep the console's own.
const lightHighlight = HighlightStyle.define(
  [
    { tag: [tags.keyword, tags.operatorKeyword, tags.modifier], color: '#cf222e' },
    { tag: [tags.string, tags.special(tags.string), tags.regexp, tags.attributeValue], color: '#0a3069' },
    { tag: [tags.number, tags.bool, tags.null, tags.atom, tags.unit], color: '#0550ae' },
    { tag: [tags.comment, tags.lineComment, tags.blockComment], color: '#57606a', fontStyle: 'italic' },
    { tag: [tags.tagName, tags.angleBracket], color: '#116329' },
    { tag: [tags.attributeName, tags.propertyName, tags.className, tags.labelName], color: '#0550ae' },
    { tag: [tags.function(tags.variableName), tags.function(tags.propertyName)], color: '#8250df' },
    { tag: [tags.definition(tags.variableName), tags.typeName], color: '#953800' },
    { tag: tags.invalid, color: '#cf222e' },
  ],
  { themeType: 'light' },
);

const PARTS: { part: Part; label: string; language: () => Extension }[] = [
  { part: 'html', label: 'HTML', language: () => [html(), syntaxHighlighting(lightHighlight)] },
  { part: 'css', label: 'CSS', language: () => [css(), syntaxHighlighting(lightHighlight)] },
  { part: 'script', label: 'JavaScript', language: () => [javascript(), syntaxHighlighting(lightHighlight)] },
];

/** Typing is taken into the draft (one undo step, one new frame in the preview) after this pause. */
export const CODE_SETTLE_MS = 400;
/** As the service takes it (customCodeSchema). */
const PART_MAX = 65_536;

function PartEditor({
  label,
  language,
  value,
  onChange,
  readOnly,
}: {
  label: string;
  language: () => Extension;
  value: string;
  onChange: (value: string) => void;
  readOnly: boolean;
}) {
  const host = useRef<HTMLDivElement>(null);
  const [extensions] = useState(language);
  const invalid = value.length > PART_MAX;
  useCodeEditor(host, { value, onChange, label: `The widget's ${label}`, readOnly, invalid, extensions });
  return (
    <Stack gap={4}>
      <div ref={host} data-testid={`custom-code-${label.toLowerCase()}`} />
      {invalid && (
        <Text size="xs" c="red">
          At most {PART_MAX} characters: this {label} will not be saved as it is.
        </Text>
      )}
    </Stack>
  );
}

/**
 * The Code panel of a custom widget: its HTML, CSS and JavaScript in three editors. What is typed
 * goes into the editor's draft once typing pauses (so undo takes back a burst of typing, and the
 * preview restarts the code once rather than at every key) and is saved with the board.
 */
export default function CustomCodePanel({
  code,
  onChange,
  disabled,
}: {
  code: CustomCode | null;
  onChange: (code: CustomCode) => void;
  disabled: boolean;
}) {
  const current = code ?? { html: '', css: '', script: '' };
  // Typing not yet taken into the draft; a draft changed from outside (undo) drops it.
  const [typed, setTyped] = useState<{ base: CustomCode | null; code: CustomCode } | null>(null);
  const pending = typed?.base === code ? typed.code : null;
  const changed = useRef(onChange);
  useEffect(() => {
    changed.current = onChange;
  });
  useEffect(() => {
    if (!pending) return;
    const timer = setTimeout(() => {
      changed.current(pending);
      // Taken: an undo back to the code it was typed over must not bring it back.
      setTyped(null);
    }, CODE_SETTLE_MS);
    return () => clearTimeout(timer);
  }, [pending]);

  const shown = pending ?? current;
  const type = (part: Part, value: string) => {
    if (value === shown[part]) return;
    setTyped({ base: code, code: { ...shown, [part]: value } });
  };
  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        Code
      </Title>
      <Text size="xs" c="dimmed">
        It runs sandboxed on the screen, with no network unless the service allows it.{' '}
        <code>wallboard.onData(callback)</code> gives it the flow&apos;s data now and on every update,{' '}
        <code>wallboard.size</code> the room it has in pixels.
      </Text>
      <Tabs defaultValue="html" keepMounted={false}>
        <Tabs.List mb="xs">
          {PARTS.map(({ part, label }) => (
            <Tabs.Tab key={part} value={part}>
              {label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {PARTS.map(({ part, label, language }) => (
          <Tabs.Panel key={part} value={part}>
            <PartEditor
              label={label}
              language={language}
              value={shown[part]}
              onChange={(value) => type(part, value)}
              readOnly={disabled}
            />
          </Tabs.Panel>
        ))}
      </Tabs>
    </Stack>
  );
}
