import { startOidcProvider, type TestProvider } from '../service/testing/oidc-provider';
import { consoleTest, expect } from './console-kit';

// Single sign-on in a browser (docs/single-sign-on.md): an admin sets it up in the console's
// forms, then a person signs in through a real OpenID provider on loopback, its login form
// filled in Chromium, and lands signed in on the console with the role their claims map to.

const test = consoleTest.extend<{ provider: TestProvider }>({
  provider: async ({ stack }, use) => {
    const provider = await startOidcProvider([`${stack.serviceUrl}/session/sso/callback`]);
    await use(provider);
    await provider.close();
  },
});

test('an admin sets single sign-on up, and a person signs in through the provider', async ({
  admin: page,
  provider,
  stack,
  browser,
}) => {
  await page.getByRole('link', { name: 'Users' }).click();
  const section = page.getByRole('region', { name: 'Single sign-on' });
  await section.getByLabel('Issuer URL').fill(provider.issuer);
  await section.getByLabel('Client ID').fill(provider.clientId);
  await section.getByLabel('Client secret').fill(provider.clientSecret);
  await section.getByLabel('Extra scopes').fill('groups');
  await section.getByLabel('Role claim').fill('roles');
  await section.getByRole('button', { name: 'Add a role rule' }).click();
  await section.getByLabel('Claim value').fill('wb-publishers');
  await section.getByLabel('Role', { exact: true }).click();
  await page.getByRole('option', { name: 'publisher' }).click();
  await section.getByRole('button', { name: 'Save single sign-on' }).click();
  await expect(section.getByText(`${stack.serviceUrl}/session/sso/callback`)).toBeVisible();
  // The secret is kept, and never shown again.
  await expect(section.getByLabel('Client secret')).toHaveValue('');
  await expect(section.getByLabel('Client secret')).toHaveAttribute('placeholder', /Stored/);

  provider.people.set('hal-sub', { preferred_username: 'hal', roles: ['wb-publishers'] });
  const person = await browser.newPage();
  await person.goto(`${stack.serviceUrl}/console/`);
  await person.getByRole('link', { name: 'Sign in with single sign-on' }).click();
  // The provider's own login form, on its own origin.
  await expect(person).toHaveURL(new RegExp(`^${provider.issuer}/interaction/`));
  await person.locator('input[name="login"]').fill('hal-sub');
  await person.locator('input[name="password"]').fill('any password');
  await person.getByRole('button', { name: 'Sign-in' }).click();
  await expect(person.getByRole('button', { name: /^hal publisher, signed in/ })).toBeVisible();
  await expect(person).toHaveURL(new RegExp(`^${stack.serviceUrl}/console/`));
  await person.close();

  await page.reload();
  await expect(page.getByRole('row', { name: /hal/ })).toContainText('single sign-on');

  // Someone the rules give no role is told so, in words, on the sign-in page.
  provider.people.set('ivy-sub', { preferred_username: 'ivy', roles: ['visitors'] });
  const stranger = await browser.newPage();
  await stranger.goto(`${stack.serviceUrl}/console/`);
  await stranger.getByRole('link', { name: 'Sign in with single sign-on' }).click();
  await stranger.locator('input[name="login"]').fill('ivy-sub');
  await stranger.locator('input[name="password"]').fill('any password');
  await stranger.getByRole('button', { name: 'Sign-in' }).click();
  await expect(stranger.getByRole('alert')).toContainText('this account gives no role to people like you');
  await stranger.close();
});
