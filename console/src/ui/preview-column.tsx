import { Grid, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * The "Preview" half of a form's page, beside the fields at a desktop's width; on a phone it
 * comes first, above the fields it follows.
 */
export function PreviewColumn({ children }: { children: ReactNode }) {
  return (
    <Grid.Col span={{ base: 12, md: 6 }} order={{ base: -1, md: 1 }}>
      <Stack>
        <Title order={2} size="h4">
          Preview
        </Title>
        {children}
      </Stack>
    </Grid.Col>
  );
}
