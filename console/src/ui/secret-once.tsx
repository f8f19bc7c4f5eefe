import { Alert, Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';

/** A secret the service shows only once (a new token): shown in full, with a copy button. */
export function SecretOnce({ secret, what }: { secret: string; what: string }) {
  return (
    <Alert color="yellow" title={`Copy the ${what} now`} role="status">
      <Stack gap="xs">
        <Text size="sm">It is shown only this once; the service keeps only a hash of it.</Text>
        <Group gap="xs" wrap="nowrap" align="center">
          <Code block style={{ flex: 1, wordBreak: 'break-all' }} data-testid="secret">
            {secret}
          </Code>
          <CopyButton value={secret}>
            {({ copied, copy }) => (
              <Button size="xs" variant="light" color={copied ? 'green' : undefined} onClick={copy}>
                {copied ? 'Copied' : 'Copy'}
              </Button>
            )}
          </CopyButton>
        </Group>
      </Stack>
    </Alert>
  );
}
