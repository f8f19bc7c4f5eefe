import { Alert, Button, Divider } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { SSO_ERRORS, ssoOptionsSchema, type SsoError } from '../../../src/shared/sso';
import { api } from '../api/client';

/**
 * The account the page signs in to: `?account=<id>` in the address (the link an operator of a
 * hosted service gives each customer), the default account of a single-account install otherwise.
 */
function accountOfAddress(): string {
  return new URLSearchParams(window.location.search).get('account') ?? 'default';
}

/** Why the last sign-in through the provider failed (`?sso_error=`), taken out of the address. */
function takeSsoError(): SsoError | null {
  const query = new URLSearchParams(window.location.search);
  const reason = query.get('sso_error');
  if (reason === null) return null;
  query.delete('sso_error');
  const rest = query.toString();
  history.replaceState(null, '', window.location.pathname + (rest ? `?${rest}` : ''));
  return reason in SSO_ERRORS ? (reason as SsoError) : 'provider';
}

/** "Sign in with single sign-on" where the account has it, and what went wrong the last time. */
export function SsoSignIn() {
  const [account] = useState(accountOfAddress);
  const [failed] = useState(takeSsoError);
  const options = useQuery({
    queryKey: ['sso-options', account],
    queryFn: () => api(ssoOptionsSchema, `/session/sso/options?account=${encodeURIComponent(account)}`),
  });
  return (
    <>
      {failed && (
        <Alert color="red" role="alert" title="Not signed in by single sign-on">
          {SSO_ERRORS[failed]}
        </Alert>
      )}
      {options.data?.sso && (
        <>
          <Button
            component="a"
            href={`/session/sso?account=${encodeURIComponent(account)}`}
            variant="default"
          >
            Sign in with single sign-on
          </Button>
          <Divider label="or with a password" labelPosition="center" />
        </>
      )}
    </>
  );
}
