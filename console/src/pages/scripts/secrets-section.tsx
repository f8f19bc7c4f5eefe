import { Code, Group, PasswordInput, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import { z } from 'zod';
import {
  SCRIPT_SECRET_NAME,
  SCRIPT_SECRET_VALUE_MAX,
  SCRIPT_SECRETS_MAX,
  scriptSecretSchema,
} from '../../../../src/shared/script-secret';
import { api, send } from '../../api/client';
import { confirmAction } from '../../ui/confirm';
import { ErrorAlert } from '../../ui/error-panel';
import { fieldErrorsOf } from '../../ui/form';
import { tell } from '../../ui/notify';
import { TimeAgo } from '../../ui/time';
import { WriteButton } from '../../ui/write-button';

const secretsPath = (scriptId: string) => `/scripts/${encodeURIComponent(scriptId)}/secrets`;
const secretPath = (scriptId: string, name: string) => `${secretsPath(scriptId)}/${encodeURIComponent(name)}`;

const NAME_RULE = 'Capital letters, digits and underscores, starting with a letter, such as API_KEY.';

/**
 * The script's named secrets (docs/scripts.md#secrets): their names and when each was set, a
 * form to add one or replace its value, and deleting. A value is typed once and never shown
 * again; the list is live by the `scripts` notice, as the rest of the page.
 */
export function SecretsSection({ scriptId }: { scriptId: string }) {
  const queries = useQueryClient();
  const secrets = useQuery({
    queryKey: ['scripts', scriptId, 'secrets'],
    queryFn: () => api(z.array(scriptSecretSchema), secretsPath(scriptId)),
  });
  const [name, setName] = useState('');
  const [value, setValue] = useState('');
  const valueInput = useRef<HTMLInputElement>(null);
  const refresh = () => queries.invalidateQueries({ queryKey: ['scripts', scriptId, 'secrets'] });
  const save = useMutation({
    mutationFn: (input: { name: string; value: string }) =>
      api(scriptSecretSchema, secretPath(scriptId, input.name), {
        method: 'PUT',
        body: { value: input.value },
      }),
    onSuccess: (saved, input) => {
      tell(
        replacing(input.name) ? `Replaced the value of ${saved.name}` : `Added the secret ${saved.name}`,
        'green',
      );
      setName('');
      setValue('');
      void refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (target: string) => send(secretPath(scriptId, target), { method: 'DELETE' }),
    onSuccess: () => void refresh(),
  });
  const names = secrets.data?.map((secret) => secret.name) ?? [];
  const replacing = (candidate: string) => names.includes(candidate);
  const errors = fieldErrorsOf(save.error);
  const nameProblem = name !== '' && !SCRIPT_SECRET_NAME.test(name) ? NAME_RULE : errors['params.name'];
  const full = names.length >= SCRIPT_SECRETS_MAX && !replacing(name);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!SCRIPT_SECRET_NAME.test(name) || value === '') return;
    save.mutate({ name, value });
  };
  const askRemove = async (target: string) => {
    const sure = await confirmAction({
      title: `Delete the secret ${target}?`,
      body: `The script's next runs no longer have secrets.${target}. Its value cannot be brought back.`,
      confirm: 'Delete the secret',
    });
    if (sure) remove.mutate(target);
  };
  const startReplacing = (target: string) => {
    setName(target);
    setValue('');
    valueInput.current?.focus();
  };

  return (
    <Stack gap="xs" component="section" aria-labelledby="script-secrets">
      <Title order={2} size="h4" id="script-secrets">
        Secrets
      </Title>
      <Text size="sm">
        Keys and passwords the script reads as <Code>secrets.NAME</Code>. A value is never shown again; where
        a run would show it (its log, its error, a notification, its result), <Code>***</Code> stands in its
        place.
      </Text>
      {secrets.error && <ErrorAlert error={secrets.error} title="The secrets could not be listed" />}
      {remove.error && <ErrorAlert error={remove.error} title="The secret was not deleted" />}
      {secrets.data?.length === 0 && <Text c="dimmed">No secrets yet.</Text>}
      {secrets.data && secrets.data.length > 0 && (
        <Table verticalSpacing={4} aria-label="Secrets of the script">
          <Table.Tbody>
            {secrets.data.map((secret) => (
              <Table.Tr key={secret.name} data-testid="script-secret">
                <Table.Td>
                  <Code>{secret.name}</Code>
                </Table.Td>
                <Table.Td>
                  <Text size="sm" c="dimmed">
                    set <TimeAgo iso={secret.updated_at} />
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Group gap="xs" justify="flex-end">
                    <WriteButton
                      variant="subtle"
                      size="compact-sm"
                      onClick={() => startReplacing(secret.name)}
                    >
                      Replace
                    </WriteButton>
                    <WriteButton
                      variant="subtle"
                      color="red"
                      size="compact-sm"
                      loading={remove.isPending && remove.variables === secret.name}
                      onClick={() => void askRemove(secret.name)}
                    >
                      Delete
                    </WriteButton>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <form onSubmit={submit} noValidate aria-label="Set a secret">
        <Stack gap="xs">
          {save.error && !errors['params.name'] && !errors.value && (
            <ErrorAlert error={save.error} title="The secret was not saved" />
          )}
          <Group align="flex-start" grow>
            <TextInput
              label="Name"
              placeholder="API_KEY"
              autoComplete="off"
              spellCheck={false}
              value={name}
              error={nameProblem}
              onChange={(event) => setName(event.currentTarget.value.toUpperCase())}
            />
            <PasswordInput
              ref={valueInput}
              label="Value"
              description={replacing(name) ? `Replaces the value of ${name}.` : 'Never shown again.'}
              autoComplete="new-password"
              maxLength={SCRIPT_SECRET_VALUE_MAX}
              value={value}
              error={errors.value}
              onChange={(event) => setValue(event.currentTarget.value)}
            />
          </Group>
          <Group>
            <WriteButton
              type="submit"
              variant="default"
              loading={save.isPending}
              disabled={!SCRIPT_SECRET_NAME.test(name) || value === '' || full}
            >
              {replacing(name) ? 'Replace the value' : 'Add the secret'}
            </WriteButton>
            {full && (
              <Text size="xs" c="dimmed">
                A script has at most {SCRIPT_SECRETS_MAX} secrets: delete one to add another.
              </Text>
            )}
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
