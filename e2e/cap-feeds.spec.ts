import { capDocument } from '../service/cap/testing/cap-xml';
import { FeedServer } from '../service/cap/testing/feed-server';
import { checkPage, consoleTest as test, expect } from './console-kit';

// A CAP feed added from the console's Emergency page, as an operator does it: the service (its
// own process) polls a feed served on loopback by this test, and the alert it raises reaches a
// real screen; removing the feed takes it off again.

const feeds = new FeedServer();
test.beforeAll(() => feeds.start());
test.afterAll(() => feeds.close());

test('an admin adds a CAP feed; its alert for their area goes on screen, and removing the feed clears it', async ({
  admin: page,
  stack,
  context,
}) => {
  test.setTimeout(90_000);
  const inAnHour = new Date(Date.now() + 3_600_000).toISOString().replace(/\.\d+Z$/, '-00:00');
  feeds.xml(
    '/coast.xml',
    capDocument({
      identifier: 'E2E-1',
      infos: [
        {
          event: 'Storm',
          severity: 'Extreme',
          headline: 'Storm surge warning',
          description: 'The sea will rise two metres above the quays tonight.',
          instruction: 'Leave the harbour front.',
          expires: inAnHour,
          areas: [{ desc: 'Harbour; Old Town' }],
        },
      ],
    }),
  );
  await stack.startPlayer();
  const screen = await context.newPage();
  await screen.setViewportSize({ width: 1280, height: 720 });
  await screen.goto(stack.playerUrl);
  await expect(screen.getByTestId('device-tag')).toHaveText(stack.tag);

  await page.getByRole('link', { name: 'Emergency' }).click();
  await expect(page.getByRole('heading', { name: 'Alert feeds' })).toBeVisible();
  await expect(page.getByText('No alert feed yet.')).toBeVisible();

  // A URL that is no web address is said on its field before anything is sent.
  const form = page.getByRole('form', { name: 'New alert feed' });
  await form.getByRole('textbox', { name: 'Feed address' }).fill('ftp://alerts.example.test/feed');
  await form.getByRole('button', { name: 'Add feed' }).click();
  await expect(form.getByText('must be an http or https URL')).toBeVisible();

  await form.getByRole('textbox', { name: 'Feed address' }).fill(feeds.url('/coast.xml'));
  await form.getByRole('textbox', { name: 'Name' }).fill('Coast guard');
  await form.getByRole('combobox', { name: 'Which alerts' }).click();
  await page.getByRole('option', { name: 'Extreme only' }).click();
  const areas = form.getByLabel('Areas', { exact: true });
  await areas.fill('harbour');
  await areas.press('Enter');
  await form.getByRole('button', { name: 'Add feed' }).click();

  const list = page.getByRole('table', { name: 'Alert feeds' });
  const row = list.getByRole('row', { name: /Coast guard/ });
  await expect(row).toContainText('Every screen');
  await expect(row).toContainText('Extreme only');
  await expect(row).toContainText('In harbour');
  // The service polls within seconds: the alert is on the screens, and the feed says so.
  const onScreen = page.getByRole('alert', { name: 'On screen: Storm surge warning' });
  await expect(onScreen).toContainText('cap-feed:Coast guard', { timeout: 20_000 });
  await expect(row).toContainText('Working');
  await expect(row).toContainText('Storm surge warning');
  await expect(screen.getByText('The sea will rise two metres above the quays tonight.')).toBeVisible();
  await checkPage(page, 'emergency-feeds');

  await row.getByRole('button', { name: 'Remove Coast guard' }).click();
  await page
    .getByRole('dialog', { name: 'Remove the feed?' })
    .getByRole('button', { name: 'Remove it' })
    .click();
  await expect(page.getByText('No alert feed yet.')).toBeVisible();
  await expect(page.getByText('No emergency message is on the screens')).toBeVisible();
  await expect(screen.getByText('The sea will rise two metres above the quays tonight.')).toBeHidden();
  const history = page.getByRole('table', { name: 'Emergency messages' });
  await expect(history.getByRole('row').nth(1)).toContainText('cap-feed:Coast guard');
  await expect(history.getByRole('row').nth(1)).toContainText('by user "ada"');
});
