import { Table, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { AlertRule } from '../../../../src/shared/alert';
import { send } from '../../api/client';
import { confirmAction } from '../../ui/confirm';
import { ErrorAlert } from '../../ui/error-panel';
import { ListTable } from '../../ui/list-table';
import { tell } from '../../ui/notify';
import { TimeAgo } from '../../ui/time';
import { WriteButton } from '../../ui/write-button';
import { rulePath, rulesQuery, useNames } from './queries';
import { RuleForm } from './rule-form';
import { Section } from './section';
import { ruleWords } from './words';
import { EditModal } from '../../ui/edit-modal';

/** When alerts fire: each rule as a sentence; add and delete. */
export function Rules() {
  const rules = useQuery(rulesQuery);
  const names = useNames();
  const queries = useQueryClient();
  const [adding, setAdding] = useState(false);
  const remove = useMutation({
    mutationFn: (rule: AlertRule) => send(rulePath(rule.id), { method: 'DELETE' }),
    onSuccess: () => tell('The rule is deleted', 'green'),
    onSettled: () => queries.invalidateQueries({ queryKey: ['alerts'] }),
  });
  const askDelete = async (rule: AlertRule) => {
    const sure = await confirmAction({
      title: 'Delete this rule?',
      body: `${ruleWords(rule, names)}. Its history goes with it, and messages not yet sent are not sent.`,
      confirm: 'Delete the rule',
    });
    if (sure) remove.mutate(rule);
  };
  return (
    <Section
      title="When to alert"
      description="What to watch (screens offline or failing to show items, a script failing, the service unable to write its data), for how long, and whom to tell. A recovery follows when it is over."
      action={<WriteButton onClick={() => setAdding(true)}>New rule</WriteButton>}
    >
      <EditModal opened={adding} onClose={() => setAdding(false)} title="New rule" size="lg">
        <RuleForm
          onAdded={() => {
            tell('The rule is added', 'green');
            void queries.invalidateQueries({ queryKey: ['alerts'] });
            setAdding(false);
          }}
        />
      </EditModal>
      {rules.error && <ErrorAlert error={rules.error} title="The rules could not be listed" />}
      {remove.error && <ErrorAlert error={remove.error} title="The rule was not deleted" />}
      <ListTable label="Rules" minWidth={560} columns={['Rule', 'Added']} actions>
        {rules.data?.map((rule) => (
          <Table.Tr key={rule.id}>
            <Table.Td>{ruleWords(rule, names)}</Table.Td>
            <Table.Td>
              <TimeAgo iso={rule.created_at} />
            </Table.Td>
            <Table.Td>
              <WriteButton
                size="compact-sm"
                variant="subtle"
                color="red"
                aria-label={`Delete the rule: ${ruleWords(rule, names)}`}
                onClick={() => void askDelete(rule)}
              >
                Delete
              </WriteButton>
            </Table.Td>
          </Table.Tr>
        ))}
      </ListTable>
      {rules.data?.length === 0 && (
        <Text c="dimmed">No rule yet: nobody is told when something goes wrong.</Text>
      )}
    </Section>
  );
}
