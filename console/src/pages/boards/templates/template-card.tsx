import { Card, Stack, Text, Title } from '@mantine/core';
import { useInViewport } from '@mantine/hooks';
import { useState } from 'react';
import type { BoardTemplateSummary } from '../../../../../src/shared/templates/template';
import { WriteButton } from '../../../ui/write-button';
import BoardPreview from '../board-preview';

/**
 * A template as a card: its board drawn live by the player's renderer with the sample data (once
 * the card scrolls into view: six boards drawn at once would slow a phone), what it is for, and
 * the one button that makes it.
 */
export function TemplateCard({
  template,
  busy,
  disabled,
  onUse,
}: {
  template: BoardTemplateSummary;
  busy: boolean;
  disabled: boolean;
  onUse: () => void;
}) {
  const { ref, inViewport } = useInViewport();
  const seen = useSeen(inViewport);
  const [width, height] = template.board.size;
  return (
    <Card withBorder padding="sm" radius="md" data-testid="template-card">
      {/* A thumbnail: what it shows the name and description say, so assistive technology skips it. */}
      <Card.Section ref={ref} p="xs" aria-hidden data-testid="template-preview">
        {seen ? (
          <BoardPreview board={template.board} />
        ) : (
          <div style={{ aspectRatio: `${width} / ${height}` }} />
        )}
      </Card.Section>
      <Stack gap={6} mt="xs" style={{ flex: 1 }}>
        <Title order={3} size="h5">
          {template.name}
        </Title>
        <Text size="sm" c="dimmed" style={{ flex: 1 }}>
          {template.description}
        </Text>
        <WriteButton
          variant="light"
          loading={busy}
          disabled={disabled}
          onClick={onUse}
          aria-label={`Use this template: ${template.name}`}
        >
          Use this template
        </WriteButton>
      </Stack>
    </Card>
  );
}

/** True from the first time the card was in view: a preview once drawn stays. */
function useSeen(inViewport: boolean): boolean {
  const [seen, setSeen] = useState(false);
  // Derived during render (React's pattern for state that follows a value), not in an effect.
  if (inViewport && !seen) setSeen(true);
  return seen || inViewport;
}
