import { Button, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { boardCreateSchema, boardSchema, type Board } from '../../../../src/shared/board';
import { api } from '../../api/client';
import { ErrorAlert } from '../../ui/error-panel';
import { fieldErrorsOf, validateBy } from '../../ui/form';

interface NameFields {
  name: string;
}
const toBody = (values: NameFields) => ({ name: values.name });

/** A new board by its name: every other setting takes its default, changed on the board's page. */
export function NewBoard({ onDone }: { onDone: (board: Board) => void }) {
  const form = useForm<NameFields>({
    mode: 'uncontrolled',
    initialValues: { name: '' },
    validate: validateBy(boardCreateSchema, toBody),
  });
  const create = useMutation({
    mutationFn: (values: NameFields) => api(boardSchema, '/boards', { method: 'POST', body: toBody(values) }),
    onSuccess: onDone,
    onError: (error) => form.setErrors(fieldErrorsOf(error)),
  });
  return (
    <form onSubmit={form.onSubmit((values) => create.mutate(values))} noValidate>
      <Stack>
        {create.error && <ErrorAlert error={create.error} details={false} />}
        <TextInput label="Name" data-autofocus key={form.key('name')} {...form.getInputProps('name')} />
        <Button type="submit" loading={create.isPending}>
          Create the board
        </Button>
      </Stack>
    </form>
  );
}
