// One service, two accounts, one attacking the other with everything at once (memory-eating and
// endless scripts, uploads, a pairing flood, password guessing): the victim's screen keeps
// updating, its script keeps its schedule within one of the attacker's run timeouts, its new
// screens get codes and its operator signs in. The scenario is service/testing/tenant-attack.ts;
// bench/tenants.ts prints the same figures beside a quiet run.
import { describe, expect, it } from 'vitest';
import { runTenantScenario } from './testing/tenant-attack';

const ATTACK_TIMEOUT_S = 2;

/** The largest of `values`, 0 when there is none. */
const worst = (values: number[]) => values.reduce((most, value) => Math.max(most, value), 0);

describe.skipIf(process.platform !== 'linux')('one tenant attacking another', () => {
  it("leaves the other account's screens, scripts, pairings and sign-ins working", async () => {
    const { victim, attacker } = await runTenantScenario({
      attack: true,
      seconds: 12,
      attackTimeoutSeconds: ATTACK_TIMEOUT_S,
      // Reached after four uploads, however slowly a busy machine takes them.
      attackerMediaMb: 1,
    });

    // The attack happened, and met its limits: quotas, pairing caps and sign-in limits refused it.
    expect(attacker.uploads?.[403] ?? 0).toBeGreaterThan(0);
    expect(attacker.pairings?.[201] ?? 0).toBeGreaterThan(0);
    expect((attacker.pairings?.[429] ?? 0) + (attacker.pairings?.[201] ?? 0)).toBeGreaterThan(20);
    expect(attacker['sign-in guesses']?.[429] ?? 0).toBeGreaterThan(0);
    // Wrong pairing codes: the first few are looked up, the rest refused unread.
    expect(attacker['claim guesses']?.[404] ?? 0).toBeLessThanOrEqual(20);
    expect(attacker['claim guesses']?.[429] ?? 0).toBeGreaterThan(20);
    expect(attacker.scripts?.[201]).toBe(8);

    // The screen had every write it was sent, each within a second.
    expect(victim.screenMs.length).toBeGreaterThan(20);
    expect(worst(victim.screenMs)).toBeLessThan(1000);
    // The operator signed in every time.
    expect(victim.signInMs.length).toBeGreaterThan(5);
    expect(victim.signInRefused).toBe(0);
    // Every new screen got its code.
    expect(victim.pairingMs.length).toBeGreaterThan(3);
    expect(victim.pairingRefused).toBe(0);
    // The script ran on schedule, late by at most about one of the attacker's run timeouts.
    expect(victim.scriptLateMs.length).toBeGreaterThan(3);
    expect(worst(victim.scriptLateMs)).toBeLessThan(ATTACK_TIMEOUT_S * 1000 + 1500);
  }, 60_000);
});
