import '@mantine/core/styles.css';
import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import type { ScriptSecret } from '../../../../src/shared/script-secret';
import { SessionProvider } from '../../session/session';
import { queryClient, serve } from '../../testing/hook-kit';
import { theme } from '../../theme';
import { SecretsSection } from './secrets-section';

const PATH = '/scripts/sc1/secrets';
const at = '2026-11-27T08:00:00.000Z';
const secret = (name: string): ScriptSecret => ({ name, created_at: at, updated_at: at });

async function showing(role: 'admin' | 'viewer' = 'admin') {
  const { queries } = queryClient();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <MantineProvider theme={theme}>
      <QueryClientProvider client={queries}>
        <SessionProvider user={{ id: 'u1', login: 'ada', role, groups: [], sso: false }}>
          <ModalsProvider>{children}</ModalsProvider>
        </SessionProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
  return render(<SecretsSection scriptId="sc1" />, { wrapper });
}

describe('the secrets of a script', () => {
  it('lists names only, adds one with its value typed once, and replaces a value', async () => {
    let names = ['API_KEY'];
    const service = serve()
      .on('GET', PATH, () => ({ status: 200, body: names.map(secret) }))
      .on('PUT', `${PATH}/TOKEN`, () => {
        names = ['API_KEY', 'TOKEN'];
        return { status: 201, body: secret('TOKEN') };
      })
      .on('PUT', `${PATH}/API_KEY`, { status: 200, body: secret('API_KEY') });
    const screen = await showing();
    await expect.element(screen.getByText('API_KEY')).toBeInTheDocument();

    const name = screen.getByRole('textbox', { name: 'Name' });
    const value = screen.getByLabelText('Value', { exact: true });
    await userEvent.type(name, 'token');
    await expect.element(name).toHaveValue('TOKEN');
    await userEvent.type(value, 's3cr3t');
    await userEvent.click(screen.getByRole('button', { name: 'Add the secret' }));
    await vi.waitFor(() => expect(service.count('PUT', `${PATH}/TOKEN`)).toBe(1));
    expect(service.sent.find((sent) => sent.method === 'PUT')?.body).toEqual({ value: 's3cr3t' });
    await expect.element(screen.getByText('TOKEN', { exact: true })).toBeInTheDocument();
    // The value is gone from the page once saved.
    await expect.element(value).toHaveValue('');

    await userEvent.click(screen.getByRole('button', { name: 'Replace' }).first());
    await expect.element(name).toHaveValue('API_KEY');
    await expect.element(value).toHaveAccessibleDescription('Replaces the value of API_KEY.');
    await userEvent.type(value, 'new');
    await userEvent.click(screen.getByRole('button', { name: 'Replace the value' }));
    await vi.waitFor(() => expect(service.count('PUT', `${PATH}/API_KEY`)).toBe(1));
  });

  it('says what a name must be, and shows the service’s refusal', async () => {
    serve()
      .on('GET', PATH, { status: 200, body: [] })
      .on('PUT', `${PATH}/KEY`, {
        status: 400,
        body: {
          error: {
            code: 'invalid_request',
            message: 'invalid request: body.value: must be at most 4096 characters',
            details: [{ path: 'body.value', message: 'must be at most 4096 characters' }],
          },
        },
      });
    const screen = await showing();
    await expect.element(screen.getByText('No secrets yet.')).toBeInTheDocument();
    const name = screen.getByRole('textbox', { name: 'Name' });
    await userEvent.type(name, '1KEY');
    await expect.element(name).toHaveAccessibleDescription(/such as API_KEY/);
    await expect.element(screen.getByRole('button', { name: 'Add the secret' })).toBeDisabled();
    await userEvent.clear(name);
    await userEvent.type(name, 'KEY');
    await userEvent.type(screen.getByLabelText('Value', { exact: true }), 'v');
    await userEvent.click(screen.getByRole('button', { name: 'Add the secret' }));
    await expect
      .element(screen.getByLabelText('Value', { exact: true }))
      .toHaveAccessibleDescription(/must be at most 4096 characters/);
  });

  it('deletes a secret once the operator confirms', async () => {
    const service = serve()
      .on('GET', PATH, { status: 200, body: [secret('API_KEY')] })
      .on('DELETE', `${PATH}/API_KEY`, { status: 204 });
    const screen = await showing();
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await expect.element(page.getByRole('dialog')).toHaveTextContent(/no longer have secrets\.API_KEY/);
    await page.getByRole('button', { name: 'Delete the secret' }).click();
    await vi.waitFor(() => expect(service.count('DELETE', `${PATH}/API_KEY`)).toBe(1));
  });

  it('lets a viewer see the names but change nothing', async () => {
    serve().on('GET', PATH, { status: 200, body: [secret('API_KEY')] });
    const screen = await showing('viewer');
    await expect.element(screen.getByText('API_KEY')).toBeInTheDocument();
    await expect.element(screen.getByRole('button', { name: 'Delete' })).toBeDisabled();
  });
});
