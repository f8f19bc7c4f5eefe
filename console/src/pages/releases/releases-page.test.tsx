import '@mantine/core/styles.css';
import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import type { Release, Rollout } from '../../../../src/shared/release';
import type { UserRole } from '../../../../src/shared/user';
import { SessionProvider } from '../../session/session';
import { queryClient, serve } from '../../testing/hook-kit';
import { theme } from '../../theme';
import ReleasesPage from './releases-page';

const at = '2026-11-27T08:00:00.000Z';
const SHA = `${'A'.repeat(86)}==`;
const release: Release = {
  id: 'rel1',
  kind: 'shell',
  channel: 'stable',
  version: '2.0.0',
  notes: 'Faster start',
  files: [{ name: 'latest.yml', size: 300, sha512: SHA }],
  created_at: at,
};
const rollout = (over: Partial<Rollout> = {}): Rollout => ({
  id: 'rol1',
  release_id: 'rel1',
  kind: 'shell',
  version: '2.0.0',
  channel: 'stable',
  group_ids: ['g1'],
  percentage: null,
  created_at: at,
  rolled_back_at: null,
  progress: { targeted: 4, on_version: 2, failed: 1, pending: 1 },
  ...over,
});

async function showing(role: UserRole = 'admin') {
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
  return render(<ReleasesPage />, { wrapper });
}

describe('the player releases page', () => {
  it("shows each rollout's progress and rolls one back once confirmed", async () => {
    let rolledBack = false;
    const service = serve()
      .on('GET', '/releases', { status: 200, body: [release] })
      .on('GET', '/groups', {
        status: 200,
        body: [
          {
            id: 'g1',
            name: 'Lobby',
            playlist_id: null,
            schedule: null,
            power: null,
            rotation: null,
            time_zone: null,
            created_at: at,
            updated_at: at,
          },
        ],
      })
      .on('GET', '/rollouts', () => ({
        status: 200,
        body: [rollout(rolledBack ? { rolled_back_at: at } : {})],
      }))
      .on('POST', '/rollouts/rol1/rollback', () => {
        rolledBack = true;
        return { status: 200, body: rollout({ rolled_back_at: at }) };
      });
    const screen = await showing();
    await expect.element(screen.getByText('2 of 4 on it, 1 failed, 1 pending')).toBeInTheDocument();
    await expect.element(screen.getByRole('cell', { name: 'Lobby' })).toBeInTheDocument();
    await expect.element(screen.getByText('Faster start')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Roll back' }));
    await userEvent.click(page.getByRole('dialog').getByRole('button', { name: 'Roll back' }));
    await vi.waitFor(() => expect(service.count('POST', '/rollouts/rol1/rollback')).toBe(1));
    await expect.element(screen.getByText('Rolled back')).toBeInTheDocument();
  });

  it('rolls a release out to a share of the screens', async () => {
    const service = serve()
      .on('GET', '/releases', { status: 200, body: [release] })
      .on('GET', '/groups', { status: 200, body: [] })
      .on('GET', '/rollouts', { status: 200, body: [] })
      .on('POST', '/rollouts', { status: 201, body: rollout({ group_ids: null, percentage: 25 }) });
    const screen = await showing();
    await userEvent.click(screen.getByRole('button', { name: 'Roll out…' }));
    await userEvent.click(page.getByRole('dialog').getByText('A share of screens'));
    const share = page.getByRole('dialog').getByRole('textbox', { name: 'Share of the screens' });
    await userEvent.fill(share, '25');
    await expect.element(share).toHaveValue('25%');
    await userEvent.click(page.getByRole('dialog').getByRole('button', { name: 'Roll out' }));
    await vi.waitFor(() => expect(service.count('POST', '/rollouts')).toBe(1));
    expect(service.sent.find((sent) => sent.method === 'POST')?.body).toEqual({
      release_id: 'rel1',
      percentage: 25,
    });
  });

  it('says what a shell upload needs, and lets a viewer change nothing', async () => {
    serve()
      .on('GET', '/releases', { status: 200, body: [release] })
      .on('GET', '/groups', { status: 200, body: [] })
      .on('GET', '/rollouts', { status: 200, body: [rollout()] });
    const screen = await showing('viewer');
    await expect
      .element(screen.getByText(/latest\.yml or latest-linux\.yml, the installer/))
      .toBeInTheDocument();
    await expect.element(screen.getByRole('button', { name: 'Upload' })).toBeDisabled();
    await expect.element(screen.getByRole('button', { name: 'Roll out…' })).toBeDisabled();
    await expect.element(screen.getByRole('button', { name: 'Roll back' })).toBeDisabled();
    // The list keeps to a kind and channel.
    await userEvent.click(screen.getByRole('combobox', { name: 'Show releases' }));
    await userEvent.click(page.getByRole('option', { name: 'Web player, beta' }));
    await expect.element(screen.getByText('No release of this kind and channel.')).toBeInTheDocument();
  });
});
