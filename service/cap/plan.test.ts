import { describe, expect, it } from 'vitest';
import type { CapAlert, CapInfo } from './alert';
import { planFeed, screenText, SEVERITY_COLORS, type CapFilter, type KnownOverride } from './plan';

/** The rules of one poll, apart from fetching and the store (the service's tests run them whole). */

const NOW = Date.parse('2026-11-27T09:00:00Z');

function info(extra: Partial<CapInfo> = {}): CapInfo {
  return {
    event: 'Storm',
    severity: 'Severe',
    headline: 'Storm warning',
    description: 'Gusts of 120 km/h.',
    instruction: 'Stay inside.',
    expires: null,
    areas: [{ description: 'North Shore; Harbour', geocodes: ['EMMA:DE001'] }],
    ...extra,
  };
}

function alert(identifier: string, extra: Partial<CapAlert> = {}): CapAlert {
  return {
    identifier,
    sender: 'sender@example.test',
    status: 'Actual',
    msgType: 'Alert',
    references: [],
    infos: [info()],
    ...extra,
  };
}

const severe: CapFilter = { min_severity: 'Severe', areas: [] };
const known = (id: string, identifier: string, inForce = true): KnownOverride => ({
  id,
  cap_identifier: identifier,
  inForce,
});

describe('planning a poll', () => {
  it('raises an alert at or above the minimum severity, with its headline, texts, colour and expiry', () => {
    const expires = NOW + 3_600_000;
    const plan = planFeed(
      [
        alert('a', { infos: [info({ severity: 'Extreme', expires })] }),
        alert('b', { infos: [info({ severity: 'Moderate' })] }),
      ],
      severe,
      [],
      NOW,
    );
    expect(plan).toEqual({
      raise: [
        {
          cap_identifier: 'a',
          title: 'Storm warning',
          message: 'Gusts of 120 km/h.\n\nStay inside.',
          background_color: SEVERITY_COLORS.Extreme,
          expires_at: new Date(expires).toISOString(),
        },
      ],
      clear: [],
    });
    const everything = planFeed(
      [alert('b', { infos: [info({ severity: 'Unknown' })] })],
      { ...severe, min_severity: 'Unknown' },
      [],
      NOW,
    );
    expect(everything.raise.map((draft) => draft.cap_identifier)).toEqual(['b']);
  });

  it('takes only Actual alerts of type Alert or Update, not expired, of the areas asked for', () => {
    const alerts = [
      alert('exercise', { status: 'Exercise' }),
      alert('test', { status: 'Test' }),
      alert('ack', { msgType: 'Ack' }),
      alert('expired', { infos: [info({ expires: NOW })] }),
      alert('harbour'),
      alert('by-geocode', {
        infos: [info({ areas: [{ description: 'Somewhere', geocodes: ['emma:de001'] }] })],
      }),
      alert('elsewhere', {
        infos: [info({ areas: [{ description: 'South Hills', geocodes: ['EMMA:DE002'] }] })],
      }),
    ];
    const plan = planFeed(alerts, { min_severity: 'Minor', areas: ['HARBOUR', 'EMMA:DE001'] }, [], NOW);
    expect(plan.raise.map((draft) => draft.cap_identifier)).toEqual(['harbour', 'by-geocode']);
  });

  it('picks the first info the feed takes: another language or area may come second', () => {
    const plan = planFeed(
      [
        alert('two', {
          infos: [
            info({ headline: 'Minor note', severity: 'Minor' }),
            info({ headline: 'Sturmwarnung', severity: 'Extreme' }),
          ],
        }),
      ],
      severe,
      [],
      NOW,
    );
    expect(plan.raise[0]).toMatchObject({ title: 'Sturmwarnung', background_color: SEVERITY_COLORS.Extreme });
  });

  it('raises an identifier once: in force, ended or cleared by hand, it is not raised again', () => {
    const plan = planFeed(
      [alert('a'), alert('b'), alert('c'), alert('c')],
      severe,
      [known('ovr_a', 'a'), known('ovr_b', 'b', false)],
      NOW,
    );
    expect(plan).toEqual({ raise: [expect.objectContaining({ cap_identifier: 'c' })], clear: [] });
  });

  it('clears what an Update or a Cancel references, and what left the feed; leaves what ended alone', () => {
    const plan = planFeed(
      [
        alert('a'),
        alert('a2', { msgType: 'Update', references: ['a'] }),
        alert('b'),
        alert('b-cancel', { msgType: 'Cancel', references: ['b'], infos: [] }),
        // A test message cancels nothing real.
        alert('d-test', { status: 'Test', msgType: 'Cancel', references: ['d'] }),
        alert('d'),
      ],
      severe,
      [
        known('ovr_a', 'a'),
        known('ovr_b', 'b'),
        known('ovr_c', 'c'),
        known('ovr_d', 'd'),
        known('ovr_e', 'e', false),
      ],
      NOW,
    );
    expect(plan.raise.map((draft) => draft.cap_identifier)).toEqual(['a2']);
    expect(plan.clear).toEqual(['ovr_a', 'ovr_b', 'ovr_c']);
  });
});

describe('screen text', () => {
  it('drops control characters and NUL, keeps line breaks, and cuts at the limit with an ellipsis', () => {
    expect(screenText('  Fire\u0000 alarm\u0007\r\n\r\n\r\n\r\nLeave  now. ', 100)).toBe(
      'Fire alarm\n\nLeave  now.',
    );
    expect(screenText('Fire\nalarm', 100, true)).toBe('Fire alarm');
    const cut = screenText('x'.repeat(118) + '😀😀', 120);
    expect(cut).toBe(`${'x'.repeat(118)}…`);
    expect(cut.length).toBeLessThanOrEqual(120);
    expect(screenText('lone \ud800 surrogate', 100)).toBe('lone \ufffd surrogate');
  });
});
