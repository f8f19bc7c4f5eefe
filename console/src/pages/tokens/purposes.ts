// What a token is for, asked when one is made, and the scope that follows from it: people know
// what the token will do (a screen, a cron job pushing values), not which of `full`, `readonly`
// and `affiliated` allows it. The scopes' permissions are the service's (service/http/auth.ts,
// docs/api.md#scopes): pushing metrics, flow errors and notifications needs `metrics:write` and
// `notifications:write`, which `affiliated` has and `readonly` has not.
import type { TokenScope } from '../../../../src/shared/token';

export const TOKEN_PURPOSES = ['screen', 'push', 'read', 'admin'] as const;
export type TokenPurpose = (typeof TOKEN_PURPOSES)[number];

interface PurposeInfo {
  label: string;
  /** What a token made for it may do and may not, in the operator's words. */
  description: string;
  scope: TokenScope;
}

export const PURPOSES: Record<TokenPurpose, PurposeInfo> = {
  screen: {
    label: 'A screen',
    description:
      'Reads what the screen shows and reports how it is doing. Give the screen’s tag to let it act for that screen alone. (Screens paired by a code get one by themselves.)',
    scope: 'affiliated',
  },
  push: {
    label: 'A script or integration pushing data',
    description:
      'A cron job or another system: sets flows’ values, reports their errors, sends notifications, and reads everything. It deletes nothing and makes no tokens.',
    scope: 'affiliated',
  },
  read: {
    label: 'Reading only',
    description: 'Reads boards, flows, screens and the rest; changes nothing. It cannot push values.',
    scope: 'readonly',
  },
  admin: {
    label: 'Administering everything',
    description:
      'Creates, changes and deletes anything, tokens and users included. Only for tools you trust as much as an admin.',
    scope: 'full',
  },
};

/** Only a screen's token may be bound to one screen (the service refuses others). */
export const bindsScreen = (purpose: TokenPurpose | null) => purpose === 'screen';

const quote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

/**
 * The command that uses a new token for `purpose`, against the service at `origin`, shown once
 * with the secret: the client flags for a screen, a `curl` for the others.
 */
export function usageCommand(
  purpose: TokenPurpose,
  origin: string,
  token: string,
  deviceTag: string | null,
): string {
  const auth = `-H ${quote(`Authorization: Bearer ${token}`)}`;
  switch (purpose) {
    case 'screen':
      return `npm start -- --server ${origin} --token ${token}${deviceTag ? ` --tag ${deviceTag}` : ''}`;
    case 'push':
      // A value widget's data; each variant's fields are in docs/widgets.md.
      return `curl -X PATCH ${origin}/flows/FLOW-TAG/metrics ${auth} -H 'content-type: application/json' -d '{"value": 42}'`;
    case 'read':
      return `curl ${origin}/flows ${auth}`;
    case 'admin':
      return `curl ${origin}/account/tokens ${auth}`;
  }
}
