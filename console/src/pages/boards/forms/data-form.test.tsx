import { MantineProvider } from '@mantine/core';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { userEvent } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import { VARIANT_EXAMPLES } from '../../../../../src/shared/variant-examples';
import { VARIANTS, type Variant } from '../../../../../src/shared/variants';
import { formatData } from '../data-editor/data-problems';
import DataForm from './data-form';

/** The form over a draft of JSON text, as the editor holds it; `latest()` reads the text back. */
async function editing(variant: Variant, data: unknown) {
  let text = formatData(data);
  function Draft() {
    const [value, setValue] = useState(text);
    return (
      <DataForm
        variant={variant}
        text={value}
        onChange={(next) => {
          text = next;
          setValue(next);
        }}
        onAdvanced={() => undefined}
        disabled={false}
      />
    );
  }
  const screen = await render(<Draft />, { wrapper: MantineProvider });
  return { screen, latest: () => JSON.parse(text) as Record<string, unknown> };
}

describe('the data form of each variant family', () => {
  it.each(VARIANTS)('draws the sample data of a %s, its title first', async (variant) => {
    const { screen } = await editing(variant, VARIANT_EXAMPLES[variant].example);
    await expect.element(screen.getByRole('textbox', { name: 'Title', exact: true })).toBeInTheDocument();
    await expect.element(screen.getByText(`The data fits the ${variant} widget.`)).toBeInTheDocument();
  });

  it('a value: the number, a text in its place, and the title, written into the same data', async () => {
    const { screen, latest } = await editing('value', { title: 'Tickets', value: 12, extra: 'kept' });
    const value = screen.getByRole('textbox', { name: 'Value', exact: true });
    await userEvent.clear(value);
    await userEvent.type(value, '42');
    expect(latest()).toEqual({ title: 'Tickets', value: 42, extra: 'kept' });
    await userEvent.type(value, ' open');
    expect(latest().value).toBe('42 open');
    await userEvent.type(screen.getByRole('textbox', { name: 'Title', exact: true }), '!');
    expect(latest().title).toBe('Tickets!');
    await expect.element(screen.getByText(/Also kept as they are.*extra/)).toBeInTheDocument();
  });

  it('a ticker: its messages as a list, edited, added and removed', async () => {
    const { screen, latest } = await editing('tickertape', { messages: ['Welcome'] });
    const first = screen.getByRole('textbox', { name: 'Message 1', exact: true });
    await userEvent.clear(first);
    await userEvent.type(first, 'Fire drill at 3 pm');
    expect(latest()).toEqual({ messages: ['Fire drill at 3 pm'] });
    await screen.getByRole('button', { name: 'Add message to messages', exact: true }).click();
    await userEvent.type(screen.getByRole('textbox', { name: 'Message 2', exact: true }), 'Lunch is served');
    expect(latest().messages).toEqual(['Fire drill at 3 pm', 'Lunch is served']);
    await screen.getByRole('button', { name: 'Remove Message 1', exact: true }).click();
    expect(latest().messages).toEqual(['Lunch is served']);
  });

  it('a chart: a series’ numbers typed as a line, what is not a number kept and said', async () => {
    const { screen, latest } = await editing('graph', { series: [{ label: 'Visits', values: [1, 2] }] });
    const values = screen.getByRole('textbox', { name: 'Values', exact: true });
    await userEvent.clear(values);
    await userEvent.type(values, '3, 4, x');
    await expect.element(screen.getByText('Only numbers, separated by commas')).toBeInTheDocument();
    expect(values).toHaveValue('3, 4, x');
    await userEvent.type(values, '{Backspace}5');
    expect(latest()).toEqual({ series: [{ label: 'Visits', values: [3, 4, 5] }] });
  });

  it('a gauge: a bad colour stays and is said under its field, as the API says it', async () => {
    const { screen, latest } = await editing('gauge', {
      value: 5,
      range: [{ from: 0, to: 10, color: '#3fb950' }],
    });
    const colour = screen.getByRole('textbox', { name: 'Colour', exact: true });
    await userEvent.clear(colour);
    await userEvent.type(colour, 'blue-ish');
    expect((latest().range as { color: string }[])[0]?.color).toBe('blue-ish');
    await expect.element(screen.getByText(/1 field needs|One field needs/)).toBeInTheDocument();
    await expect.element(colour).toHaveAccessibleDescription(/color/i);
  });

  it('a countdown: its moment with a date and time picker', async () => {
    const { screen, latest } = await editing('countdown', { time: 1_798_761_600 });
    const when = screen.getByLabelText('Counts down to');
    expect(when.element().getAttribute('type')).toBe('datetime-local');
    await userEvent.fill(when, '2030-01-01T12:00');
    expect(latest().time).toBe(new Date('2030-01-01T12:00').getTime() / 1000);
  });

  it('text that is not JSON is not lost: the form says to fix it in the JSON view', async () => {
    const { screen } = await editing('value', {});
    screen.rerender(
      <DataForm
        variant="value"
        text="{ nope"
        onChange={() => undefined}
        onAdvanced={() => undefined}
        disabled={false}
      />,
    );
    await expect
      .element(screen.getByRole('button', { name: 'Open the JSON view', exact: true }))
      .toBeInTheDocument();
  });
});
