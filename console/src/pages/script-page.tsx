import { Anchor, Grid, Stack } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { scriptRunSchema, scriptSchema, type Script } from '../../../src/shared/script';
import { api, send } from '../api/client';
import { confirmAction } from '../ui/confirm';
import { LeaveGuard } from '../ui/leave-guard';
import { ErrorAlert } from '../ui/error-panel';
import { fieldErrorsOf } from '../ui/form';
import { PageHeader } from '../ui/page-header';
import { WriteButton } from '../ui/write-button';
import { LibraryReference } from './scripts/library-reference';
import { RunLog } from './scripts/run-log';
import { SecretsSection } from './scripts/secrets-section';
import {
  fieldsOf,
  NEW_SCRIPT,
  ScriptFormFields,
  toBody,
  useScriptForm,
  type ScriptFields,
} from './scripts/script-form';
import { tell } from '../ui/notify';
import { Loading } from '../ui/loading';

const pathOf = (id: string) => `/scripts/${encodeURIComponent(id)}`;

/** A script's editor (`scripts/:id`), or a new one's (`scripts/new`), with the library beside it. */
export default function ScriptPage() {
  const { id = 'new' } = useParams();
  const creating = id === 'new';
  const script = useQuery({
    queryKey: ['scripts', id],
    queryFn: () => api(scriptSchema, pathOf(id)),
    enabled: !creating,
  });
  return (
    <>
      <PageHeader
        title={creating ? 'New script' : (script.data?.name ?? 'Script')}
        description={
          <>
            JavaScript the service runs on an interval to feed a flow.{' '}
            <Anchor component={Link} to="/scripts" size="sm" underline="always">
              All scripts
            </Anchor>
          </>
        }
      />
      {script.error && <ErrorAlert error={script.error} title="The script could not be read" />}
      {script.isPending && !creating && <Loading label="Loading the script" />}
      <Grid gap="xl">
        <Grid.Col span={{ base: 12, lg: 8 }}>
          <Stack gap="xl">
            {creating ? <ScriptEditor /> : script.data && <ScriptEditor script={script.data} />}
            {!creating && script.data && <SecretsSection scriptId={script.data.id} />}
            {!creating && script.data && <RunLog scriptId={script.data.id} />}
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 4 }}>
          <LibraryReference />
        </Grid.Col>
      </Grid>
    </>
  );
}

function ScriptEditor({ script }: { script?: Script }) {
  const navigate = useNavigate();
  const queries = useQueryClient();
  const form = useScriptForm(script ? fieldsOf(script) : NEW_SCRIPT);
  // Saved elsewhere (another operator, this page's own save): the form follows unless edited.
  useEffect(() => {
    if (script && !form.isDirty()) form.setValues(fieldsOf(script));
    if (script) form.resetDirty(fieldsOf(script));
    // Only a new version of the script matters here, not the form object.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [script?.updated_at]);
  const save = useMutation({
    mutationFn: (values: ScriptFields) =>
      script
        ? api(scriptSchema, pathOf(script.id), { method: 'PATCH', body: toBody(values) })
        : api(scriptSchema, '/scripts', { method: 'POST', body: toBody(values) }),
    onSuccess: (saved) => {
      queries.setQueryData(['scripts', saved.id], saved);
      tell(`Saved "${saved.name}"`, 'green');
      if (!script) void navigate(`/scripts/${encodeURIComponent(saved.id)}`);
    },
    onError: (error) => form.setErrors(fieldErrorsOf(error)),
  });
  const run = useMutation({
    mutationFn: (target: Script) => api(scriptRunSchema, `${pathOf(target.id)}/run`, { method: 'POST' }),
    onSuccess: (done) => void queries.invalidateQueries({ queryKey: ['scripts', done.script_id, 'runs'] }),
  });
  const remove = useMutation({
    mutationFn: (target: Script) => send(pathOf(target.id), { method: 'DELETE' }),
    onSuccess: () => void navigate('/scripts'),
  });
  const askRemove = async (target: Script) => {
    const sure = await confirmAction({
      title: 'Delete this script?',
      body: `"${target.name}" and its runs are deleted; its flow keeps its last data.`,
      confirm: 'Delete the script',
    });
    if (sure) remove.mutate(target);
  };
  return (
    <form onSubmit={form.onSubmit((values) => save.mutate(values))} noValidate aria-label="Script">
      <Stack>
        {/* A script's edits wait for its Save; a new one is left alone (its Save leaves the page). */}
        {script && <LeaveGuard what="This script" dirty={form.isDirty()} />}
        {save.error && <ErrorAlert error={save.error} title="The script was not saved" />}
        {run.error && <ErrorAlert error={run.error} title="The script could not be run" />}
        {remove.error && <ErrorAlert error={remove.error} />}
        <ScriptFormFields
          form={form}
          actions={
            <>
              <WriteButton type="submit" loading={save.isPending}>
                {script ? 'Save' : 'Create the script'}
              </WriteButton>
              {script && (
                <>
                  <WriteButton
                    variant="default"
                    loading={run.isPending}
                    onClick={() => run.mutate(script)}
                    title={form.isDirty() ? 'Runs the saved code, not the edits' : undefined}
                  >
                    Run now
                  </WriteButton>
                  <WriteButton variant="subtle" color="red" onClick={() => void askRemove(script)}>
                    Delete
                  </WriteButton>
                </>
              )}
            </>
          }
        />
      </Stack>
    </form>
  );
}
