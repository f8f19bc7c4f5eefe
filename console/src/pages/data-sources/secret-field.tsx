import { Button, Group, PasswordInput, Stack, Text } from '@mantine/core';

/**
 * The source's password or token, write-only: the service never answers it, so the field is
 * empty and says whether one is set. Typed, it replaces it; "Remove" takes it away at the Save;
 * left alone, it is kept (updateBody in source-fields.ts).
 */
export function SecretField({
  label,
  hasSecret,
  value,
  removed,
  onChange,
  onRemoved,
  error,
  disabled,
}: {
  label: string;
  /** Whether the saved source has one (false for a new source). */
  hasSecret: boolean;
  value: string;
  removed: boolean;
  onChange: (value: string) => void;
  onRemoved: (removed: boolean) => void;
  error?: string;
  disabled: boolean;
}) {
  const description = removed
    ? `The ${label.toLowerCase()} will be removed when you save.`
    : hasSecret
      ? `A ${label.toLowerCase()} is set: type to replace it, or leave empty to keep it.`
      : `Kept secret: never shown again, not even to admins.`;
  return (
    <Stack gap={4}>
      <PasswordInput
        label={label}
        description={description}
        autoComplete="new-password"
        value={value}
        disabled={disabled || removed}
        error={error}
        onChange={(event) => onChange(event.currentTarget.value)}
      />
      {hasSecret && (
        <Group gap="xs">
          {removed ? (
            <Button variant="subtle" size="compact-sm" disabled={disabled} onClick={() => onRemoved(false)}>
              Keep the {label.toLowerCase()}
            </Button>
          ) : (
            <Button
              variant="subtle"
              color="red"
              size="compact-sm"
              disabled={disabled}
              onClick={() => {
                onChange('');
                onRemoved(true);
              }}
            >
              Remove the {label.toLowerCase()}
            </Button>
          )}
          {removed && (
            <Text size="xs" c="dimmed">
              Removed at the Save.
            </Text>
          )}
        </Group>
      )}
    </Stack>
  );
}
