import { Alert, Button, Center, Paper, PasswordInput, Stack, TextInput, Title } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { z } from 'zod';
import { userSchema } from '../../../src/shared/user';
import { api } from '../api/client';
import { SESSION_QUERY_KEY } from './session';
import { SsoSignIn } from './sso-sign-in';

const signInSchema = z.object({
  login: z.string().trim().min(1, 'Enter your login'),
  password: z.string().min(1, 'Enter your password'),
});
type Credentials = z.infer<typeof signInSchema> | { code: string };

/** A one-time code from a sign-in link (`npm start` prints one), taken out of the address at once. */
function takeCode(): string | null {
  const code = new URLSearchParams(window.location.hash.slice(1)).get('code');
  if (code) history.replaceState(null, '', window.location.pathname + window.location.search);
  return code;
}

export function SignInPage() {
  const queries = useQueryClient();
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { login: '', password: '' },
    validate: schemaResolver(signInSchema, { sync: true }),
  });
  const signIn = useMutation({
    mutationFn: (body: Credentials) => api(userSchema, '/session', { method: 'POST', body }),
    onSuccess: (user) => queries.setQueryData(SESSION_QUERY_KEY, user),
  });
  const { mutate } = signIn;
  const codeTried = useRef(false);
  useEffect(() => {
    if (codeTried.current) return;
    codeTried.current = true;
    const code = takeCode();
    if (code) mutate({ code });
  }, [mutate]);

  return (
    <Center mih="100vh" p="md">
      <Paper component="main" withBorder shadow="sm" p="xl" w="100%" maw={380}>
        <form onSubmit={form.onSubmit((values) => signIn.mutate(values))} noValidate>
          <Stack>
            <Title order={1} size="h3">
              Sign in to Wallboard
            </Title>
            <SsoSignIn />
            {signIn.error && (
              <Alert color="red" role="alert" title="Not signed in">
                {signIn.error.message}
              </Alert>
            )}
            <TextInput
              label="Login"
              autoComplete="username"
              autoFocus
              key={form.key('login')}
              {...form.getInputProps('login')}
            />
            <PasswordInput
              label="Password"
              autoComplete="current-password"
              key={form.key('password')}
              {...form.getInputProps('password')}
            />
            <Button type="submit" loading={signIn.isPending}>
              Sign in
            </Button>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
