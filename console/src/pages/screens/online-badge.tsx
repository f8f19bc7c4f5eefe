import { Badge } from '@mantine/core';

/** Whether a screen is online, in words and color (the color is never the only cue). */
export function OnlineBadge({ online }: { online: boolean }) {
  return (
    <Badge color={online ? 'green' : 'red'} variant="dot" miw="max-content" data-testid="online-state">
      {online ? 'Online' : 'Offline'}
    </Badge>
  );
}
