import { DEFAULT_ACCOUNT_ID, accountOrDefault } from '../accounts/scope';

/**
 * socket.io rooms: a device socket joins the rooms of everything it shows. Ids are unique in the
 * whole store; a tag only within its account, so a device's room names the account (but the
 * default one's, whose rooms are those of the events logged before accounts).
 */
export const rooms = {
  device: (tag: string, account = accountOrDefault()) =>
    account === DEFAULT_ACCOUNT_ID ? `device:${tag}` : `device:${account}/${tag}`,
  playlist: (id: string) => `playlist:${id}`,
  board: (id: string) => `board:${id}`,
  flow: (id: string) => `flow:${id}`,
  channel: (id: string) => `channel:${id}`,
  /** Every screen of a group: the notifications sent to the group. */
  group: (id: string) => `group:${id}`,
  /** Every screen of the account: the notifications sent to all of them. */
  screens: (account = accountOrDefault()) => `screens:${account}`,
};
