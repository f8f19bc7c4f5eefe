import { Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** One part of the alerts page: its heading, what it is for, and its button beside them. */
export function Section({
  title,
  description,
  action,
  children,
}: {
  title: string;
  description: string;
  action?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Stack component="section" gap="xs" aria-label={title}>
      <Group justify="space-between" align="flex-end" gap="xs">
        <Stack gap={2}>
          <Title order={2} size="h4">
            {title}
          </Title>
          <Text c="dimmed" size="sm">
            {description}
          </Text>
        </Stack>
        {action}
      </Group>
      {children}
    </Stack>
  );
}
