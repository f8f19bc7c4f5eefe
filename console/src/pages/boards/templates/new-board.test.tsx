import '@mantine/core/styles.css';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { page } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import { MemoryRouter, Route, Routes, useParams } from 'react-router';
import { boardExportSchema } from '../../../../../src/shared/board-export';
import { BOARD_TEMPLATES } from '../../../../../src/shared/templates';
import type { UserRole } from '../../../../../src/shared/user';
import { SessionProvider } from '../../../session/session';
import { queryClient, serve } from '../../../testing/hook-kit';
import { theme } from '../../../theme';
import { NewBoard } from './new-board';

/** The templates as `GET /board-templates` answers them. */
const LISTED = BOARD_TEMPLATES.map(({ id, name, description, board, script }) => ({
  id,
  name,
  description,
  board: boardExportSchema.parse(board),
  script: { name: script.name, interval: script.interval, feeds: script.feeds },
}));

function Opened() {
  return <p>Opened {useParams().id}</p>;
}

async function showNewBoard(role: UserRole = 'admin') {
  const { queries } = queryClient();
  const done = vi.fn();
  await render(
    <MantineProvider theme={theme}>
      <QueryClientProvider client={queries}>
        <SessionProvider user={{ id: 'u1', login: 'ada', role, groups: [], sso: false }}>
          <MemoryRouter initialEntries={['/boards']}>
            <Routes>
              <Route path="/boards" element={<NewBoard onDone={done} />} />
              <Route path="/boards/:id" element={<Opened />} />
            </Routes>
          </MemoryRouter>
        </SessionProvider>
      </QueryClientProvider>
    </MantineProvider>,
  );
  return done;
}

const created = { id: 'b7', name: 'Sales', theme: 'light', created_at: '2026-11-24T08:00:00.000Z' };

describe('a new board', () => {
  it('offers every template drawn with its sample data, and makes one in one click, then opens it', async () => {
    const service = serve()
      .on('GET', '/board-templates', { status: 200, body: LISTED })
      .on('POST', '/boards/from-template/sales', () => ({
        status: 201,
        body: { board: created, script: {} },
      }));
    const done = await showNewBoard();
    for (const template of BOARD_TEMPLATES) {
      // Each preview is drawn once its card comes into view.
      const card = page.getByTestId('template-card').filter({ hasText: template.description });
      await expect.element(card).toBeInTheDocument();
      card.element().scrollIntoView({ block: 'start' });
      await expect.element(card.getByTestId('board-preview')).toBeVisible();
      await expect.element(card.getByTestId('template-preview')).toHaveAttribute('aria-hidden', 'true');
    }
    // The previews draw the templates' sample data with the player's own widgets.
    await expect.element(page.getByText('Acme Corp')).toBeVisible();
    await page.getByRole('button', { name: 'Use this template: Sales' }).click();
    await expect.element(page.getByText('Opened b7')).toBeVisible();
    expect(service.sent.filter((sent) => sent.method === 'POST')).toEqual([
      { method: 'POST', path: '/boards/from-template/sales', body: {} },
    ]);
    expect(done).toHaveBeenCalled();
  });

  it('says why a template was not made, and stays', async () => {
    serve()
      .on('GET', '/board-templates', { status: 200, body: LISTED })
      .on('POST', '/boards/from-template/kpi-wall', {
        status: 403,
        body: { error: { code: 'quota_exceeded', message: 'the account has its 50 scripts', details: [] } },
      });
    const done = await showNewBoard();
    await page.getByRole('button', { name: 'Use this template: KPI wall' }).click();
    await expect.element(page.getByRole('alert')).toHaveTextContent('the account has its 50 scripts');
    expect(done).not.toHaveBeenCalled();
  });

  it('keeps a viewer from making one', async () => {
    serve().on('GET', '/board-templates', { status: 200, body: LISTED });
    await showNewBoard('viewer');
    await expect.element(page.getByRole('button', { name: 'Use this template: Sales' })).toBeDisabled();
  });
});
