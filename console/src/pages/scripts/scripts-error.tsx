import { ApiError } from '../../api/client';
import { ErrorAlert } from '../../ui/error-panel';

/** Only admins (full tokens) read scripts: their code and logs often hold secrets such as API keys. */
export function ScriptsError({ error, title }: { error: unknown; title: string }) {
  if (error instanceof ApiError && error.status === 403) {
    return (
      <ErrorAlert
        error={
          new Error(
            'Scripts are shown to admins only: their code and run logs often hold secrets (API keys).',
          )
        }
        title="Not for viewers"
      />
    );
  }
  return <ErrorAlert error={error} title={title} />;
}
