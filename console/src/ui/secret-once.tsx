import { Alert, Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';

/**
 * A secret the service shows only once (a new token): shown in full, with a copy button. `note`
 * says why it is not shown again, where a hash is not the reason.
 */
export function SecretOnce({
  secret,
  what,
  note = 'It is shown only this once; the service keeps only a hash of it.',
}: {
  secret: string;
  what: string;
  note?: string;
}) {
  return (
    <Alert color="yellow" title={`Copy the ${what} now`} role="status">
      <Stack gap="xs">
        <Text size="sm">{note}</Text>
        <CopyableCode value={secret} testId="secret" />
      </Stack>
    </Alert>
  );
}

/** Text to copy (a secret, a command), wrapped wherever it must be to fit, with a copy button. */
export function CopyableCode({ value, testId }: { value: string; testId: string }) {
  return (
    <Group gap="xs" wrap="nowrap" align="flex-start">
      <Code block style={{ flex: 1, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid={testId}>
        {value}
      </Code>
      <CopyButton value={value}>
        {({ copied, copy }) => (
          <Button size="xs" variant="light" color={copied ? 'green' : undefined} onClick={copy}>
            {copied ? 'Copied' : 'Copy'}
          </Button>
        )}
      </CopyButton>
    </Group>
  );
}
