import { Button, Radio, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { tokenCreatedSchema, tokenCreateSchema, type TokenCreated } from '../../../../src/shared/token';
import { api } from '../../api/client';
import { ErrorAlert } from '../../ui/error-panel';
import { CopyableCode } from '../../ui/secret-once';
import { fieldErrorsOf, validateBy } from '../../ui/form';
import { bindsScreen, PURPOSES, TOKEN_PURPOSES, usageCommand, type TokenPurpose } from './purposes';

interface TokenFields {
  name: string;
  purpose: TokenPurpose | null;
  device_tag: string;
}

/** What the service is sent: the purpose's scope, and the screen only for a screen's token. */
const toBody = ({ name, purpose, device_tag }: TokenFields) => ({
  name,
  scope: purpose ? PURPOSES[purpose].scope : undefined,
  device_tag: bindsScreen(purpose) ? device_tag.trim() || undefined : undefined,
});

const byService = validateBy(tokenCreateSchema, toBody);

/** A new token: what it is for (which picks its scope), a name, and for a screen, which one. */
export function CreateTokenForm({
  onCreated,
}: {
  onCreated: (token: TokenCreated, purpose: TokenPurpose) => void;
}) {
  // Controlled: the screen's field shows for a screen's token only.
  const form = useForm<TokenFields>({
    mode: 'controlled',
    initialValues: { name: '', purpose: null, device_tag: '' },
    // No purpose is picked for the operator: "Reading only" looked like the safe pick, and a
    // script pushing data then got 403.
    validate: (values) =>
      values.purpose === null ? { purpose: 'Choose what the token is for' } : byService(values),
  });
  const create = useMutation({
    mutationFn: (values: TokenFields) =>
      api(tokenCreatedSchema, '/account/tokens', { method: 'POST', body: toBody(values) }),
    onSuccess: (token, values) => {
      if (values.purpose) onCreated(token, values.purpose);
    },
    onError: (error) => form.setErrors(fieldErrorsOf(error)),
  });
  const { purpose } = form.values;
  return (
    <form onSubmit={form.onSubmit((values) => create.mutate(values))} noValidate>
      <Stack>
        {create.error && <ErrorAlert error={create.error} details={false} />}
        <Radio.Group label="What is it for?" key={form.key('purpose')} {...form.getInputProps('purpose')}>
          <Stack gap="sm" mt="xs">
            {TOKEN_PURPOSES.map((value) => (
              <Radio
                key={value}
                value={value}
                label={PURPOSES[value].label}
                description={`${PURPOSES[value].description} Scope: ${PURPOSES[value].scope}.`}
              />
            ))}
          </Stack>
        </Radio.Group>
        <TextInput
          label="Name"
          description="Who or what uses it, to know it again in the list"
          key={form.key('name')}
          {...form.getInputProps('name')}
        />
        {bindsScreen(purpose) && (
          <TextInput
            label="Screen"
            description="The tag of the one screen it acts for (optional; none: any screen)"
            key={form.key('device_tag')}
            {...form.getInputProps('device_tag')}
          />
        )}
        <Button type="submit" loading={create.isPending}>
          Create the token
        </Button>
      </Stack>
    </form>
  );
}

/** How to use a token just made: the command for its purpose, with its secret, to copy. */
export function TokenUsage({ token, purpose }: { token: TokenCreated; purpose: TokenPurpose }) {
  const command = usageCommand(purpose, window.location.origin, token.token, token.device_tag);
  return (
    <Stack gap="xs">
      <Text size="sm" fw={500}>
        {purpose === 'screen' ? 'Start the screen with it' : 'Use it like this'}
      </Text>
      {purpose === 'push' && (
        <Text size="sm" c="dimmed">
          FLOW-TAG is the tag of the flow to set (Flows page); each widget’s fields are in the documentation
          of widgets.
        </Text>
      )}
      <CopyableCode value={command} testId="token-usage" />
    </Stack>
  );
}
