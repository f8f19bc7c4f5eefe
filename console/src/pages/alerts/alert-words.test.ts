import { describe, expect, it } from 'vitest';
import {
  alertDestinationCreateSchema,
  alertRuleCreateSchema,
  type Alert,
  type AlertDelivery,
  type AlertDestination,
  type AlertRule,
} from '../../../../src/shared/alert';
import { ApiError } from '../../api/client';
import { fieldErrorsOf, validateBy } from '../../ui/form';
import {
  destinationBody,
  destinationFieldErrors,
  newSecret,
  ruleBody,
  ruleFieldErrors,
  type DestinationFields,
  type RuleFields,
} from './fields';
import {
  deliveryProblem,
  deliveryState,
  destinationLabel,
  destinationWhere,
  durationWords,
  incidentWords,
  ruleWords,
  type Names,
} from './words';

const at = '2026-11-27T14:44:34.702Z';
const noc: AlertDestination = {
  id: 'adst_noc',
  kind: 'webhook',
  name: 'NOC',
  url: 'https://ops.example.com/wallboard',
  has_secret: true,
  created_at: at,
};
const ops: AlertDestination = {
  id: 'adst_ops',
  kind: 'email',
  name: '',
  to: ['ops@example.com'],
  has_secret: false,
  created_at: at,
};
const names: Names = {
  groups: new Map([['grp_lobby', 'Lobby']]),
  screens: new Map([['hall-1', 'Hall 1']]),
  scripts: new Map([['sc_feed', 'Weather feed']]),
  destinations: new Map([noc, ops].map((destination) => [destination.id, destination])),
};
const rule = (target: AlertRule['target'], after_seconds: number, destination_ids: string[]): AlertRule => ({
  id: 'arul_1',
  event: 'device.offline',
  after_seconds,
  target,
  destination_ids,
  created_at: at,
});

describe('alerts in words', () => {
  it('says a rule as an operator would', () => {
    expect(ruleWords(rule({ group_id: 'grp_lobby' }, 300, ['adst_noc', 'adst_ops']), names)).toBe(
      'Screens of group Lobby offline for 5 minutes → NOC webhook, ops@example.com',
    );
    expect(ruleWords(rule({ all: true }, 5400, ['adst_noc']), names)).toBe(
      'Any screen offline for 1 hour 30 minutes → NOC webhook',
    );
    expect(ruleWords(rule({ device_tag: 'hall-1' }, 10, []), names)).toBe(
      'Screen Hall 1 (hall-1) offline for 10 seconds → nobody: its destinations were deleted',
    );
  });

  it('says a rule of each event in its own words', () => {
    const base = { id: 'arul_2', destination_ids: ['adst_noc'], created_at: at };
    expect(
      ruleWords(
        { ...base, event: 'device.failing', after_seconds: 300, target: { group_id: 'grp_lobby' } },
        names,
      ),
    ).toBe('Screens of group Lobby failing to show items (a failure in the last 5 minutes) → NOC webhook');
    expect(
      ruleWords({ ...base, event: 'script.failing', failures: 3, target: { script_id: 'sc_feed' } }, names),
    ).toBe('Script Weather feed failing 3 runs in a row → NOC webhook');
    expect(ruleWords({ ...base, event: 'script.failing', failures: 1, target: { all: true } }, names)).toBe(
      'Any script failing a run → NOC webhook',
    );
    expect(
      ruleWords({ ...base, event: 'node.unwritable', after_seconds: 60, target: { all: true } }, names),
    ).toBe('The service unable to write its data for 1 minute → NOC webhook');
  });

  it('says what each incident was about, and what went wrong', () => {
    const incident: Alert = {
      id: 'alrt_1',
      event: 'device.offline',
      status: 'firing',
      devices: ['hall-1'],
      screens: [{ tag: 'hall-1', name: 'Hall 1' }],
      started_at: at,
      rule_id: 'arul_1',
      deliveries: [],
    };
    expect(incidentWords(incident)).toEqual({
      event: 'Screen offline',
      about: 'Hall 1',
      inFull: 'Hall 1 (hall-1)',
      details: [],
      ongoing: 'Still offline',
    });
    const failing = {
      ...incident,
      event: 'device.failing' as const,
      screens: [
        {
          tag: 'hall-1',
          name: 'Hall 1',
          failures: [{ item: 'video:https://x/v.mp4', reason: 'decode', at }],
        },
      ],
    };
    expect(incidentWords(failing)).toMatchObject({
      event: 'Screen failing to show items',
      details: ['Hall 1: video:https://x/v.mp4 (decode)'],
      ongoing: 'Still failing',
    });
    const script = {
      ...incident,
      event: 'script.failing' as const,
      devices: [],
      screens: [],
      scripts: [
        { id: 'sc_feed', name: 'Weather feed', failures: 3, reason: 'timed out: stopped after 10 s' },
      ],
    };
    expect(incidentWords(script)).toMatchObject({
      event: 'Script failing',
      about: 'Weather feed',
      details: ['Weather feed: 3 failed runs, the last timed out: stopped after 10 s'],
    });
    const node = {
      ...incident,
      event: 'node.unwritable' as const,
      devices: [],
      screens: [],
      node: { id: 'host:42:ab12', reason: 'the disk is full (ENOSPC)', since: at },
    };
    expect(incidentWords(node)).toMatchObject({
      event: 'Service cannot write its data',
      about: 'Service node host:42:ab12',
      details: ['the disk is full (ENOSPC)'],
      ongoing: 'Still cannot write',
    });
  });

  it('names a destination by its name and kind, or by where it sends', () => {
    expect(destinationLabel({ ...noc, name: 'NOC webhook' })).toBe('NOC webhook');
    expect(destinationLabel({ ...noc, name: '' })).toBe('webhook to ops.example.com');
    const slack: AlertDestination = {
      id: 'adst_s',
      kind: 'slack',
      name: '',
      url_hint: 'https://hooks.slack.com/…a1b2',
      has_secret: false,
      created_at: at,
    };
    expect(destinationLabel(slack)).toBe('Slack https://hooks.slack.com/…a1b2');
    expect(destinationWhere(slack)).toBe('https://hooks.slack.com/…a1b2');
    expect(destinationWhere({ ...ops, to: ['a@x.org', 'b@x.org'] })).toBe('a@x.org, b@x.org');
  });

  it('says whole days, hours, minutes and seconds', () => {
    expect(durationWords(60)).toBe('1 minute');
    expect(durationWords(86_400 + 61)).toBe('1 day 1 minute 1 second');
  });

  it('tells a message waiting, retrying, delivered and given up apart', () => {
    const delivery: AlertDelivery = {
      destination_id: 'adst_noc',
      phase: 'firing',
      status: 'pending',
      attempts: 0,
    };
    expect(deliveryState(delivery).label).toBe('Waiting');
    const retrying = { ...delivery, attempts: 2, last_error: 'answered 503' };
    expect(deliveryState(retrying).label).toBe('Retrying');
    expect(deliveryProblem(retrying)).toBe('2 attempts so far: answered 503');
    const failed = { ...retrying, status: 'failed' as const, attempts: 10 };
    expect(deliveryProblem(failed)).toBe('Given up after 10 attempts: answered 503');
    expect(deliveryProblem({ ...delivery, status: 'delivered', attempts: 1 })).toBe('');
  });
});

describe('the alert forms', () => {
  const destination: DestinationFields = { kind: 'webhook', name: ' ', url: '', secret: newSecret(), to: '' };
  const validateDestination = (values: DestinationFields) =>
    destinationFieldErrors(validateBy(alertDestinationCreateSchema, destinationBody)(values), values);

  it('offers a secret the service takes, and sends only the fields of the kind', () => {
    expect(newSecret()).toMatch(/^[0-9a-f]{64}$/);
    const webhook = { ...destination, url: 'https://ops.example.com/hook', to: 'ignored' };
    expect(validateDestination(webhook)).toEqual({});
    expect(destinationBody(webhook)).toEqual({
      kind: 'webhook',
      name: undefined,
      url: 'https://ops.example.com/hook',
      secret: webhook.secret,
    });
    expect(destinationBody({ ...webhook, kind: 'slack' })).toEqual({
      kind: 'slack',
      name: undefined,
      url: 'https://ops.example.com/hook',
    });
  });

  it('says which typed address is wrong, on the addresses', () => {
    const email = { ...destination, kind: 'email' as const, to: 'ops@example.com,\nnot an address' };
    expect(validateDestination(email)).toEqual({ to: 'not: must be an e-mail address' });
    expect(validateDestination({ ...email, to: 'ops@example.com\n noc@example.com ' })).toEqual({});
  });

  it("puts the service's refusal of e-mail on the kind", () => {
    const refusal = new ApiError(400, 'invalid_request', 'e-mail alerts need --smtp-url', [
      { path: 'body.kind', message: 'email needs an SMTP server (--smtp-url); none is set' },
    ]);
    expect(destinationFieldErrors(fieldErrorsOf(refusal), destination)).toEqual({
      kind: 'email needs an SMTP server (--smtp-url); none is set',
    });
  });

  const fields: RuleFields = {
    event: 'device.offline',
    amount: 5,
    unit: 'minutes',
    which: 'group',
    group_id: '',
    device_tag: '',
    script_id: '',
    failures: 3,
    destination_ids: ['adst_noc'],
  };
  const validateRule = (values: RuleFields) =>
    ruleFieldErrors(validateBy(alertRuleCreateSchema, ruleBody)(values), values);

  it('sends the time in whole seconds', () => {
    expect(ruleBody({ ...fields, amount: 1.5 }).after_seconds).toBe(90);
    expect(ruleBody({ ...fields, amount: 10, unit: 'seconds', which: 'all' })).toEqual({
      event: 'device.offline',
      after_seconds: 10,
      target: { all: true },
      destination_ids: ['adst_noc'],
    });
  });

  it('puts each problem on the field the operator chose it with', () => {
    expect(validateRule({ ...fields, amount: 5, unit: 'seconds', destination_ids: [] })).toEqual({
      amount: 'Between 10 seconds and a week',
      group_id: 'Choose a group',
      destination_ids: 'Choose at least one destination',
    });
    expect(validateRule({ ...fields, which: 'screen' })).toEqual({ device_tag: 'Choose a screen' });
    const refusal = new ApiError(400, 'invalid_request', 'group grp_x does not exist', [
      { path: 'body.target.group_id', message: 'must name an existing group' },
      { path: 'body.destination_ids.0', message: 'must name an existing alert destination' },
    ]);
    expect(ruleFieldErrors(fieldErrorsOf(refusal), { ...fields, group_id: 'grp_x' })).toEqual({
      group_id: 'must name an existing group',
      destination_ids: 'must name an existing alert destination',
    });
  });

  it('sends only the fields of the event chosen', () => {
    expect(ruleBody({ ...fields, event: 'script.failing', which: 'script', script_id: 'sc_feed' })).toEqual({
      event: 'script.failing',
      failures: 3,
      target: { script_id: 'sc_feed' },
      destination_ids: ['adst_noc'],
    });
    expect(ruleBody({ ...fields, event: 'node.unwritable', amount: 2 })).toEqual({
      event: 'node.unwritable',
      after_seconds: 120,
      target: { all: true },
      destination_ids: ['adst_noc'],
    });
    expect(
      ruleBody({ ...fields, event: 'device.failing', which: 'screen', device_tag: 'hall-1' }),
    ).toMatchObject({
      event: 'device.failing',
      after_seconds: 300,
      target: { device_tag: 'hall-1' },
    });
  });

  it("says a script rule's problems on its fields", () => {
    const script = { ...fields, event: 'script.failing' as const, which: 'script' as const };
    expect(validateRule({ ...script, failures: 0 })).toEqual({
      failures: 'Between 1 and 50 runs',
      script_id: 'Choose a script',
    });
    expect(validateRule({ ...script, script_id: 'sc_feed', failures: 50 })).toEqual({});
    const refusal = new ApiError(400, 'invalid_request', 'script sc_x does not exist', [
      { path: 'body.target.script_id', message: 'must name an existing script' },
    ]);
    expect(ruleFieldErrors(fieldErrorsOf(refusal), { ...script, script_id: 'sc_x' })).toEqual({
      script_id: 'must name an existing script',
    });
  });
});
