import { Group, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { scriptUsageSchema, type ScriptUsage } from '../../../../src/shared/script';
import { api } from '../../api/client';

/** Whole seconds as an operator reads them: "12 s", "1 h 5 min". */
function seconds(value: number): string {
  const whole = Math.round(value);
  if (whole < 120) return `${whole} s`;
  const minutes = Math.round(whole / 60);
  return minutes < 120 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/**
 * What the account uses of the service's limits on scripts, in a line an operator who is not a
 * developer reads: its script time this hour and its enabled scripts, and why runs were refused.
 * Live with the `scripts` notice (a run recorded), and every half minute as the hour slides.
 */
export function ScriptLimits() {
  const usage = useQuery({
    queryKey: ['scripts', 'usage'],
    queryFn: () => api(scriptUsageSchema, '/scripts/usage'),
    refetchInterval: 30_000,
  });
  if (!usage.data) return null;
  return <LimitsLine usage={usage.data} />;
}

function LimitsLine({ usage }: { usage: ScriptUsage }) {
  const time = usage.script_time;
  const enabled = usage.enabled_scripts;
  const timeSpent = time.used_seconds >= time.limit_seconds;
  const enabledFull = enabled.used >= enabled.limit;
  return (
    <>
      {/* Side by side where there is room, one under the other on a phone. */}
      <Group gap="lg" style={{ rowGap: 4 }} data-testid="script-limits">
        <Text size="sm" c={timeSpent ? 'red' : 'dimmed'}>
          Script time this hour: {seconds(time.used_seconds)} of {seconds(time.limit_seconds)}
        </Text>
        <Text size="sm" c={enabledFull ? 'red' : 'dimmed'}>
          Enabled scripts: {enabled.used} of {enabled.limit}
        </Text>
      </Group>
      {time.refused_runs > 0 && (
        <Text size="sm" c="red">
          {time.refused_runs === 1 ? '1 run was' : `${time.refused_runs} runs were`} refused this hour: this
          account&apos;s scripts used all their time. They run again by themselves as the hour frees time.
        </Text>
      )}
      {enabledFull && (
        <Text size="sm" c="dimmed">
          No more scripts can be enabled: disable one first. New scripts can still be saved disabled.
        </Text>
      )}
    </>
  );
}
