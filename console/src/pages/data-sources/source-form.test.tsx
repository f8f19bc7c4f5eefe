import '@mantine/core/styles.css';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import type { DataSource } from '../../../../src/shared/data-source';
import { SessionProvider } from '../../session/session';
import { queryClient, serve } from '../../testing/hook-kit';
import { theme } from '../../theme';
import { SourceForm } from './source-form';

const saved: DataSource = {
  id: 's1',
  name: 'Status API',
  kind: 'json',
  url: 'https://api.example.com/status.json',
  auth: 'bearer',
  username: null,
  has_secret: true,
  headers: {},
  interval_seconds: 60,
  timeout_seconds: 10,
  allow_private: false,
  created_at: '2026-11-27T08:00:00.000Z',
  last_run_at: null,
  last_ok_at: null,
  last_error: null,
  bindings: 0,
};

async function showing(source: DataSource | undefined, role: 'admin' | 'viewer' = 'admin') {
  const { queries } = queryClient();
  const onSaved = vi.fn();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <MantineProvider theme={theme}>
      <QueryClientProvider client={queries}>
        <SessionProvider user={{ id: 'u1', login: 'ada', role, groups: [], sso: false }}>
          {children}
        </SessionProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
  const screen = await render(<SourceForm source={source} onSaved={onSaved} onCancel={() => undefined} />, {
    wrapper,
  });
  return { screen, onSaved };
}

describe('a data source’s form', () => {
  it('shows the fields of the kind chosen: sign-in and headers over HTTP, a password for a database', async () => {
    const { screen } = await showing(undefined);
    await expect.element(screen.getByRole('radiogroup', { name: 'Sign-in' })).toBeInTheDocument();
    await expect.element(screen.getByRole('button', { name: 'Add a header' })).toBeInTheDocument();
    await expect
      .element(screen.getByPlaceholder('https://prometheus.example.com'))
      .toHaveAccessibleName(/Server address/);
    await userEvent.click(screen.getByRole('combobox', { name: 'Kind' }));
    // The options are drawn in a portal, outside the form.
    await userEvent.click(page.getByRole('option', { name: 'PostgreSQL' }));
    await expect
      .element(screen.getByRole('textbox', { name: /Database address/ }))
      .toHaveAttribute('placeholder', 'postgres://reader@db.example.com:5432/sales');
    await expect.element(screen.getByLabelText('Password', { exact: true })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add a header' }).query()).toBeNull();
  });

  it('keeps a secret set unless it is typed or removed, and the PATCH says which', async () => {
    const service = serve().on('PATCH', '/data-sources/s1', ({ body }) => ({
      status: 200,
      body: { ...saved, ...(body as object) },
    }));
    const { screen, onSaved } = await showing(saved);
    const token = screen.getByLabelText('Token', { exact: true });
    await expect.element(token).toHaveAccessibleDescription(/A token is set: type to replace it/);
    await userEvent.click(screen.getByRole('button', { name: 'Save the source' }));
    await vi.waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1));
    expect(service.sent.at(-1)?.body).toEqual({});

    await userEvent.click(screen.getByRole('button', { name: 'Remove the token' }));
    await expect.element(token).toHaveAccessibleDescription(/will be removed when you save/);
    await userEvent.click(screen.getByRole('button', { name: 'Save the source' }));
    await vi.waitFor(() => expect(onSaved).toHaveBeenCalledTimes(2));
    expect(service.sent.at(-1)?.body).toEqual({ secret: null });

    await userEvent.click(screen.getByRole('button', { name: 'Keep the token' }));
    await userEvent.type(token, 'new-token');
    await userEvent.click(screen.getByRole('button', { name: 'Save the source' }));
    await vi.waitFor(() => expect(onSaved).toHaveBeenCalledTimes(3));
    expect(service.sent.at(-1)?.body).toEqual({ secret: 'new-token' });
  });

  it('lets a viewer read the settings but not save them', async () => {
    await showing(saved, 'viewer').then(({ screen }) =>
      expect.element(screen.getByRole('button', { name: 'Save the source' })).toBeDisabled(),
    );
  });
});
