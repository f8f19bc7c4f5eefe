import { createHmac, timingSafeEqual } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ALERT_AFTER_SECONDS } from '../src/shared/alert';
import { checkPage, consoleTest as test, expect, signIn, VIEWER } from './console-kit';

// Issue 31's walk: an operator who knows no JSON sets up a webhook and an offline rule for a group
// in the console; a real web player of that group dies and comes back; the operator's receiver
// hears one alert and one recovery, both signed, and the console's history says so.

/** The measured delays, in the run's output. */
const print = (line: string) => process.stdout.write(`${line}\n`);

/** One message the receiver got, as it got it. */
interface Received {
  at: number;
  delivery: string;
  signatureOk: boolean;
  body: { alert: { status: string; devices: string[] }; screens: { tag: string; name: string }[] };
}

/** The operator's own receiver on loopback: checks the signature over the raw body, as docs/alerts.md says. */
async function receiver(
  secret: () => string,
): Promise<{ server: Server; url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks);
      const expected = Buffer.from(`sha256=${createHmac('sha256', secret()).update(raw).digest('hex')}`);
      const given = Buffer.from(String(request.headers['x-wallboard-signature'] ?? ''));
      received.push({
        at: Date.now(),
        delivery: String(request.headers['x-wallboard-delivery']),
        signatureOk: given.length === expected.length && timingSafeEqual(given, expected),
        body: JSON.parse(raw.toString()) as Received['body'],
      });
      response.writeHead(204).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}/wallboard`, received };
}

test('an operator is told once when a screen of a group dies, and once when it is back', async ({
  admin: page,
  stack,
  context,
}) => {
  // The rule's 10 s, the socket's grace, 15 s of gathering and the passes, a restart, on a busy machine.
  test.setTimeout(240_000);
  let secret = '';
  const hook = await receiver(() => secret);
  try {
    // A real screen (the web player) in the group Lobby, on screen in a page of its own.
    const lobby = await stack.api<{ id: string }>('POST', '/groups', { name: 'Lobby' });
    await stack.startPlayer();
    const screen = await context.newPage();
    await screen.goto(stack.playerUrl);
    await stack.waitOnline();
    await stack.api('PATCH', `/devices/${stack.tag}`, { group_id: lobby.id });
    await page.bringToFront();

    await page.getByRole('link', { name: 'Alerts' }).click();
    await expect(page.getByRole('heading', { name: 'Alerts', level: 1 })).toBeVisible();

    // E-mail needs an SMTP server, which this service has not: said on the kind, nothing stored.
    await page.getByRole('button', { name: 'Add a destination' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('radio', { name: 'E-mail' }).check();
    await dialog.getByLabel('Addresses').fill('ops@example.com');
    await dialog.getByRole('button', { name: 'Add the destination' }).click();
    await expect(dialog.getByRole('radiogroup', { name: 'Kind' })).toHaveAccessibleDescription(
      /needs an SMTP server/,
    );

    // The webhook, with the secret the console offers, copied from where it is shown once.
    await dialog.getByRole('radio', { name: 'Webhook' }).check();
    await dialog.getByLabel('Name').fill('NOC');
    await dialog.getByLabel('URL').fill(hook.url);
    const offered = await dialog.getByLabel('Secret').inputValue();
    expect(offered).toMatch(/^[0-9a-f]{64}$/);
    await dialog.getByRole('button', { name: 'Add the destination' }).click();
    await expect(dialog.getByRole('status')).toContainText('Copy the secret now');
    secret = (await dialog.getByTestId('secret').textContent()) ?? '';
    expect(secret).toBe(offered);
    await dialog.getByRole('button', { name: 'Done' }).click();
    const destinations = page.getByRole('table', { name: 'Destinations' });
    await expect(destinations.getByRole('row', { name: /NOC Webhook/ })).toContainText(hook.url);

    // The shortest rule the service takes, for the group, said back in words.
    await page.getByRole('button', { name: 'New rule' }).click();
    const form = page.getByRole('form', { name: 'New rule' });
    await form.getByRole('combobox', { name: 'Which screens' }).click();
    await page.getByRole('option', { name: 'The screens of a group' }).click();
    await form.getByRole('combobox', { name: 'Group' }).click();
    await page.getByRole('option', { name: 'Lobby' }).click();
    await form.getByLabel('Offline for').fill(String(ALERT_AFTER_SECONDS.min));
    await form.getByRole('combobox', { name: 'Unit' }).click();
    await page.getByRole('option', { name: 'seconds' }).click();
    await form.getByRole('combobox', { name: 'Tell' }).click();
    await page.getByRole('option', { name: 'NOC webhook' }).click();
    await form.getByRole('button', { name: 'Add the rule' }).click();
    await expect(page.getByRole('table', { name: 'Rules' })).toContainText(
      `Screens of group Lobby offline for ${ALERT_AFTER_SECONDS.min} seconds → NOC webhook`,
    );

    // The screen dies.
    const killed = Date.now();
    await stack.killPlayer();
    await expect.poll(() => hook.received.length, { timeout: 90_000, intervals: [250] }).toBe(1);
    const alert = hook.received[0]!;
    const alertDelay = (alert.at - killed) / 1000;
    print(`the alert arrived ${alertDelay.toFixed(1)} s after the screen died`);
    expect(alert.signatureOk).toBe(true);
    expect(alert.body.alert).toMatchObject({ status: 'firing', devices: [stack.tag] });
    expect(alert.body.screens).toEqual([{ tag: stack.tag, name: `Screen ${stack.tag}` }]);
    // Not before the gathering; within the rule, the socket's grace (5 s), the gathering and two passes.
    expect(alertDelay).toBeGreaterThanOrEqual(15);
    expect(alertDelay).toBeLessThan(ALERT_AFTER_SECONDS.min + 5 + 15 + 2 * 5 + 5);
    const incident = page.getByRole('table', { name: 'Alert history' }).getByTestId('incident');
    await expect(incident).toHaveCount(1);
    await expect(incident).toContainText('Still offline');
    await expect(incident).toContainText(`Screen ${stack.tag}`);

    // It comes back.
    stack.playerOutput = '';
    const restarted = Date.now();
    await stack.startPlayer();
    await screen.goto(stack.playerUrl);
    await expect.poll(() => hook.received.length, { timeout: 60_000, intervals: [250] }).toBe(2);
    const recovery = hook.received[1]!;
    print(
      `the recovery arrived ${((recovery.at - restarted) / 1000).toFixed(1)} s after the screen was started again`,
    );
    expect(recovery.signatureOk).toBe(true);
    expect(recovery.body.alert).toMatchObject({ status: 'resolved', devices: [stack.tag] });
    expect(recovery.delivery).not.toBe(alert.delivery);

    // The history says it, live: resolved, both messages delivered.
    await page.bringToFront();
    await expect(incident).toContainText('Resolved');
    const deliveries = incident.getByTestId('delivery');
    await expect(deliveries).toHaveText([
      /^Delivered\s*Alert to NOC webhook/,
      /^Delivered\s*Recovery to NOC webhook/,
    ]);
    await checkPage(page, 'alerts');

    // Two more passes of the job: nothing more is sent.
    await page.waitForTimeout(11_000);
    expect(hook.received).toHaveLength(2);
  } finally {
    hook.server.close();
  }
});

test('a viewer sees the alerts and changes nothing', async ({ page, stack }) => {
  const destination = await stack.api<{ id: string }>('POST', '/alert-destinations', {
    kind: 'slack',
    name: 'Ops',
    url: 'https://hooks.slack.com/services/T0/B0/abcd1234',
  });
  await stack.api('POST', '/alert-rules', {
    event: 'device.offline',
    after_seconds: 300,
    target: { all: true },
    destination_ids: [destination.id],
  });
  await signIn(page, stack, VIEWER);
  await page.goto(`${stack.serviceUrl}/console/alerts`);
  await expect(page.getByRole('table', { name: 'Rules' })).toContainText(
    'Any screen offline for 5 minutes → Ops Slack',
  );
  // The Slack URL is its own credential: only a hint of it is shown.
  await expect(page.getByRole('table', { name: 'Destinations' })).toContainText(
    'https://hooks.slack.com/…1234',
  );
  await expect(page.getByRole('button', { name: 'Add a destination' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'New rule' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Delete Ops Slack' })).toBeDisabled();
  await expect(page.getByText('No rule has fired yet.')).toBeVisible();
});

test('an operator watches a script, failing screens and the service, in words, and sees a script fail', async ({
  admin: page,
  stack,
}) => {
  test.setTimeout(120_000);
  const hook = await receiver(() => 'a-secret-of-sixteen-chars');
  try {
    await stack.api('POST', '/alert-destinations', {
      kind: 'webhook',
      name: 'NOC',
      url: hook.url,
      secret: 'a-secret-of-sixteen-chars',
    });
    const script = await stack.api<{ id: string }>('POST', '/scripts', {
      name: 'Weather feed',
      code: 'throw new Error("upstream down")',
      interval: '1h',
      enabled: false,
    });
    await page.getByRole('link', { name: 'Alerts' }).click();
    const rules = page.getByRole('table', { name: 'Rules' });
    const form = page.getByRole('form', { name: 'New rule' });
    const pick = async (label: string, option: string) => {
      await form.getByRole('combobox', { name: label, exact: true }).click();
      await page.getByRole('option', { name: option, exact: true }).click();
    };

    // A script: the lists of a script rule, its runs in a row; no script chosen is said on the list.
    await page.getByRole('button', { name: 'New rule' }).click();
    await pick('Alert when', 'Script failing');
    await expect(form.getByLabel('Offline for')).toHaveCount(0);
    await pick('Which scripts', 'One script');
    await form.getByLabel('Failed runs in a row').fill('2');
    await pick('Tell', 'NOC webhook');
    await form.getByRole('button', { name: 'Add the rule' }).click();
    await expect(form.getByRole('combobox', { name: 'Script', exact: true })).toHaveAccessibleDescription(
      'Choose a script',
    );
    await pick('Script', 'Weather feed');
    await form.getByRole('button', { name: 'Add the rule' }).click();
    await expect(rules).toContainText('Script Weather feed failing 2 runs in a row → NOC webhook');

    // Screens failing to show items, for every screen.
    await page.getByRole('button', { name: 'New rule' }).click();
    await pick('Alert when', 'Screen failing to show items');
    await form.getByLabel('An item failed within the last').fill('10');
    await pick('Tell', 'NOC webhook');
    await form.getByRole('button', { name: 'Add the rule' }).click();
    await expect(rules).toContainText(
      'Any screen failing to show items (a failure in the last 10 minutes) → NOC webhook',
    );

    // The service unable to write: no target to choose.
    await page.getByRole('button', { name: 'New rule' }).click();
    await pick('Alert when', 'Service cannot write its data');
    await expect(form.getByRole('combobox', { name: 'Which screens' })).toHaveCount(0);
    await form.getByLabel('Cannot write for').fill('1');
    await pick('Tell', 'NOC webhook');
    await form.getByRole('button', { name: 'Add the rule' }).click();
    await expect(rules).toContainText('The service unable to write its data for 1 minute → NOC webhook');

    // The script fails twice: the history names it and why, live.
    for (let i = 0; i < 2; i++) await stack.api('POST', `/scripts/${script.id}/run`);
    const incident = page.getByRole('table', { name: 'Alert history' }).getByTestId('incident');
    await expect(incident).toHaveCount(1, { timeout: 30_000 });
    await expect(incident).toContainText('Still failing');
    await expect(incident).toContainText('Script failing');
    await expect(incident).toContainText(
      'Weather feed: 2 failed runs, the last failed: Error: upstream down',
    );
    await expect.poll(() => hook.received.length, { timeout: 30_000 }).toBe(1);
    expect(hook.received[0]?.signatureOk).toBe(true);
    await checkPage(page, 'alerts-events');
  } finally {
    hook.server.close();
  }
});
