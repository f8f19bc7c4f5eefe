import { MantineProvider } from '@mantine/core';
import axe from 'axe-core';
import { describe, expect, it } from 'vitest';
import { render } from 'vitest-browser-react';
import { Loading } from './loading';

describe('a loading spinner', () => {
  it('is a status named by what loads, with no attribute its role forbids', async () => {
    const screen = await render(
      <MantineProvider>
        <Loading label="Loading the screens" />
      </MantineProvider>,
    );
    await expect.element(screen.getByRole('status', { name: 'Loading the screens' })).toBeInTheDocument();
    const { violations } = await axe.run(screen.container, { runOnly: ['aria-prohibited-attr'] });
    expect(violations).toEqual([]);
  });
});
