import type { Extension } from '@codemirror/state';
import { ViewPlugin } from '@codemirror/view';
import { MantineProvider } from '@mantine/core';
import { useRef } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import { useCodeEditor, type CodeEditorOptions } from './editor-theme';

type Props = Omit<CodeEditorOptions, 'extensions'> & { extensions?: Extension };

function Editor({ extensions = [], ...props }: Props) {
  const host = useRef<HTMLDivElement>(null);
  useCodeEditor(host, { ...props, extensions });
  return <div ref={host} />;
}

const LABEL = 'Code';
const options = (changes: Partial<Props> = {}): Props => ({
  value: 'return 1;',
  onChange: () => undefined,
  label: LABEL,
  readOnly: false,
  invalid: false,
  ...changes,
});

async function editing(props: Props) {
  const screen = await render(<Editor {...props} />, { wrapper: MantineProvider });
  const rerender = (next: Props) => screen.rerender(<Editor {...next} />);
  return { screen, rerender, text: page.getByRole('textbox', { name: LABEL }) };
}

/** Types at the end of the text, as an operator would after clicking into it. */
async function typeAtEnd(keys: string) {
  await page.getByRole('textbox', { name: LABEL }).click();
  await userEvent.keyboard(`{Control>}{End}{/Control}${keys}`);
}

describe('the code editor', () => {
  it('shows the value and tells the latest onChange what is typed', async () => {
    const first = vi.fn();
    const { text, rerender } = await editing(options({ onChange: first }));
    await expect.element(text).toHaveTextContent('return 1;');

    const latest = vi.fn();
    await rerender(options({ onChange: latest }));
    await typeAtEnd('2');
    await vi.waitFor(() => expect(latest).toHaveBeenLastCalledWith('return 1;2'));
    expect(first).not.toHaveBeenCalled();
  });

  it('takes a value from outside in place of the text; its own text coming back is no change', async () => {
    const onChange = vi.fn();
    const { text, rerender } = await editing(options({ onChange }));
    await typeAtEnd('2');
    await vi.waitFor(() => expect(onChange).toHaveBeenCalledTimes(1));
    await rerender(options({ onChange, value: 'return 1;2' }));
    await expect.element(text).toHaveTextContent('return 1;2');
    expect(onChange).toHaveBeenCalledTimes(1);

    await rerender(options({ onChange, value: 'return 42;' }));
    await expect.element(text).toHaveTextContent('return 42;');
  });

  it('refuses typing while read-only, and follows read-only, label and validity as they change', async () => {
    const onChange = vi.fn();
    const { text, rerender } = await editing(options({ onChange, readOnly: true }));
    await expect.element(text).toHaveAttribute('contenteditable', 'false');
    await expect.element(text).toHaveAttribute('aria-invalid', 'false');

    await rerender(options({ onChange, invalid: true }));
    await expect.element(text).toHaveAttribute('contenteditable', 'true');
    await expect.element(text).toHaveAttribute('aria-invalid', 'true');
    await typeAtEnd('2');
    await vi.waitFor(() => expect(onChange).toHaveBeenLastCalledWith('return 1;2'));

    await rerender(options({ onChange, label: 'Script' }));
    await expect.element(page.getByRole('textbox', { name: 'Script' })).toBeInTheDocument();
  });

  it('is taken down with its component', async () => {
    const destroyed = vi.fn();
    const { screen } = await editing(
      options({ extensions: ViewPlugin.define(() => ({ destroy: destroyed })) }),
    );
    expect(destroyed).not.toHaveBeenCalled();
    await screen.unmount();
    expect(destroyed).toHaveBeenCalledTimes(1);
  });
});
