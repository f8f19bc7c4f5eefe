import '@mantine/core/styles.css';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import type { DataSource } from '../../../../../src/shared/data-source';
import type { MetricsData } from '../../../../../src/shared/metrics';
import { SessionProvider } from '../../../session/session';
import { sampleFlow } from '../../../testing/fixtures';
import { queryClient, serve } from '../../../testing/hook-kit';
import { theme } from '../../../theme';
import { bindingEdited, NO_BINDINGS, type BindingEdits } from './binding-edits';
import { DataBinding } from './data-binding';

const source: DataSource = {
  id: 's1',
  name: 'Tickets DB',
  kind: 'postgres',
  url: 'postgres://reader@db:5432/tickets',
  auth: 'none',
  username: null,
  has_secret: true,
  headers: {},
  interval_seconds: 60,
  timeout_seconds: 10,
  allow_private: true,
  created_at: '2026-11-27T08:00:00.000Z',
  last_run_at: null,
  last_ok_at: null,
  last_error: null,
  bindings: 0,
};

/** The panel over a draft held as the editor holds it; `draft()` reads it back. */
async function binding() {
  const { queries } = queryClient();
  let edits: BindingEdits = NO_BINDINGS;
  const tried = vi.fn<(data: MetricsData | null) => void>();
  function Panel() {
    const [current, setCurrent] = useState(edits);
    return (
      <DataBinding
        flow={sampleFlow('f1', 'hall')}
        variant="value"
        saved={null}
        edit={current.get('f1')}
        onChange={(edit) => {
          edits = bindingEdited(edits, edit);
          setCurrent(edits);
        }}
        onTried={tried}
        disabled={false}
      />
    );
  }
  const screen = await render(
    <MantineProvider theme={theme}>
      <QueryClientProvider client={queries}>
        <SessionProvider user={{ id: 'u1', login: 'ada', role: 'admin', groups: [], sso: false }}>
          <MemoryRouter>
            <Panel />
          </MemoryRouter>
        </SessionProvider>
      </QueryClientProvider>
    </MantineProvider>,
  );
  return { screen, tried, draft: () => edits.get('f1') };
}

describe('binding a widget’s flow to a data source', () => {
  it('picks a source, maps fields by their labels, tries it and hands the fitting data to the preview', async () => {
    const service = serve()
      .on('GET', '/data-sources', { status: 200, body: [source] })
      .on('POST', '/data-sources/s1/test', {
        status: 200,
        body: { ok: true, duration_ms: 12, result: [{ open: 42 }], metrics: { value: 42 } },
      });
    const { screen, tried, draft } = await binding();
    await userEvent.click(screen.getByRole('combobox', { name: 'Data source' }));
    await userEvent.click(page.getByRole('option', { name: 'Tickets DB' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Query (SQL)' }), 'SELECT count(*) AS open');
    // One row per field of the variant, named by its label.
    await userEvent.fill(screen.getByRole('textbox', { name: 'Value', exact: true }), '[0].open');
    expect(draft()?.to).toEqual({
      source_id: 's1',
      query: 'SELECT count(*) AS open',
      range: null,
      mapping: { value: '[0].open' },
    });

    await userEvent.click(screen.getByRole('button', { name: 'Try it' }));
    await expect
      .element(screen.getByRole('region', { name: "The widget's data from the source" }))
      .toHaveTextContent('"value": 42');
    expect(service.sent.at(-1)?.body).toEqual({
      query: 'SELECT count(*) AS open',
      range: null,
      mapping: { value: '[0].open' },
      flow: 'hall',
    });
    expect(tried).toHaveBeenLastCalledWith({ value: 42 });

    await userEvent.click(screen.getByRole('button', { name: 'Stop using the source' }));
    expect(draft()).toBeUndefined();
    expect(tried).toHaveBeenLastCalledWith(null);
  });

  it('says why a try failed, in red', async () => {
    serve()
      .on('GET', '/data-sources', { status: 200, body: [source] })
      .on('POST', '/data-sources/s1/test', {
        status: 200,
        body: { ok: false, duration_ms: 3, error: 'relation "tickets" does not exist' },
      });
    const { screen, tried } = await binding();
    await userEvent.click(screen.getByRole('combobox', { name: 'Data source' }));
    await userEvent.click(page.getByRole('option', { name: 'Tickets DB' }));
    await userEvent.fill(screen.getByRole('textbox', { name: 'Value', exact: true }), '[0].open');
    await userEvent.click(screen.getByRole('button', { name: 'Try it' }));
    await expect.element(screen.getByRole('alert')).toHaveTextContent('relation "tickets" does not exist');
    expect(tried).toHaveBeenLastCalledWith(null);
  });
});
