import { Alert, Button, Stack, Text } from '@mantine/core';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { ApiError } from '../api/client';

function messageOf(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`;
  if (error instanceof Error) return error.message;
  return 'Something went wrong.';
}

/** A page that could not be shown, with why. */
export function ErrorPanel({ error }: { error: unknown }) {
  return (
    <Alert color="red" title="This page could not be shown" role="alert" m="md">
      {messageOf(error)}
    </Alert>
  );
}

/** The router's error page: what a page threw while loading or drawing. */
export function RouteError() {
  return <ErrorPanel error={useRouteError()} />;
}

export function NotFound() {
  return (
    <Stack align="flex-start">
      <Text>There is no such page.</Text>
      <Button component={Link} to="/" variant="light">
        Back to the console
      </Button>
    </Stack>
  );
}

/**
 * An error of a request, where the page shows it (a failed list, a refused form). A form that
 * shows each detail on its field passes `details={false}`.
 */
export function ErrorAlert({
  error,
  title = 'The service refused',
  details: withDetails = true,
}: {
  error: unknown;
  title?: string;
  details?: boolean;
}) {
  const details = withDetails && error instanceof ApiError ? error.details : [];
  return (
    <Alert color="red" title={title} role="alert">
      <Text size="sm">{messageOf(error)}</Text>
      {details.length > 0 && (
        <ul>
          {details.map(({ path, message }) => (
            <li key={`${path}:${message}`}>
              <Text size="sm">{path ? `${path}: ${message}` : message}</Text>
            </li>
          ))}
        </ul>
      )}
    </Alert>
  );
}
