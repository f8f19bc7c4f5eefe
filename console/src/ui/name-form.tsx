import { Button, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { ErrorAlert } from './error-panel';
import { fieldErrorsOf, validateBy } from './form';

interface NameFields {
  name: string;
}
const toBody = (values: NameFields) => ({ name: values.name });

/**
 * A form of one field, the name: what creating a resource by its name (every other field taking
 * its default) or renaming one asks. Checked by `schema`, the one the service checks the body
 * with; `save` sends `{name}` and answers what was saved, handed to `onDone`.
 */
export function NameForm<T>({
  schema,
  save,
  onDone,
  submit,
  initial = '',
}: {
  schema: z.ZodType;
  save: (body: NameFields) => Promise<T>;
  onDone: (saved: T) => void;
  /** The button's label: "Create the board", "Rename". */
  submit: string;
  initial?: string;
}) {
  const form = useForm<NameFields>({
    mode: 'uncontrolled',
    initialValues: { name: initial },
    validate: validateBy(schema, toBody),
  });
  const saving = useMutation({
    mutationFn: (values: NameFields) => save(toBody(values)),
    onSuccess: onDone,
    onError: (error) => form.setErrors(fieldErrorsOf(error)),
  });
  return (
    <form onSubmit={form.onSubmit((values) => saving.mutate(values))} noValidate>
      <Stack>
        {saving.error && <ErrorAlert error={saving.error} details={false} />}
        <TextInput label="Name" data-autofocus key={form.key('name')} {...form.getInputProps('name')} />
        <Button type="submit" loading={saving.isPending}>
          {submit}
        </Button>
      </Stack>
    </form>
  );
}
