import { Badge, Group } from '@mantine/core';
import type { Flow } from '../../../../src/shared/flow';

/** Errored (its script or source failed: widgets show an error icon), and whether it is ready. */
export function FlowState({ flow }: { flow: Flow }) {
  return (
    <Group gap={4}>
      {flow.errored ? (
        <Badge color="red" variant="dot">
          errored
        </Badge>
      ) : (
        <Badge color="green" variant="dot">
          ok
        </Badge>
      )}
      {!flow.enabled && (
        <Badge color="gray" variant="dot">
          not ready
        </Badge>
      )}
    </Group>
  );
}
