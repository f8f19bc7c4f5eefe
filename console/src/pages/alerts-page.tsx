import { Stack } from '@mantine/core';
import { PageHeader } from '../ui/page-header';
import { Destinations } from './alerts/destinations';
import { History } from './alerts/history';
import { Rules } from './alerts/rules';

/**
 * Alerts (docs/alerts.md): where they go, when they fire, and what fired. Kept live by
 * the service's `alerts` notice; viewers see it all, and every button that would change
 * something says why it is disabled.
 */
export default function AlertsPage() {
  return (
    <>
      <PageHeader
        title="Alerts"
        description="Be told when screens go offline or fail to show items, when a script keeps failing, or when the service cannot save its data, and again when it is over: by e-mail, Slack, Teams or a webhook."
      />
      <Stack gap="xl">
        <Destinations />
        <Rules />
        <History />
      </Stack>
    </>
  );
}
