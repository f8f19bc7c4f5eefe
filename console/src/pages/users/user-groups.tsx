import { MultiSelect, Text, type MultiSelectProps } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { userRecordSchema, type UserRecord } from '../../../../src/shared/user';
import { api } from '../../api/client';
import { useWriteRefusal } from '../../session/session';
import { confirmAction } from '../../ui/confirm';
import { ErrorAlert } from '../../ui/error-panel';
import { groupsQuery } from '../schedules/queries';

const WHOLE_ACCOUNT = 'Every screen';

/** The account's screen groups as choices, by name. */
function useGroupOptions(): { value: string; label: string }[] {
  const groups = useQuery(groupsQuery);
  return (groups.data ?? []).map((group) => ({ value: group.id, label: group.name }));
}

/** The names of `ids`, in words: what a user is kept to. */
function namesOf(ids: readonly string[], options: { value: string; label: string }[]): string {
  if (ids.length === 0) return WHOLE_ACCOUNT.toLowerCase();
  return ids.map((id) => options.find((option) => option.value === id)?.label ?? id).join(', ');
}

/** The new-user form's field: the groups the role is kept to, none for every screen. */
export function GroupsField(props: Omit<MultiSelectProps, 'data'>) {
  const options = useGroupOptions();
  return (
    <MultiSelect
      label="Screen groups"
      description="Kept to these groups' screens and what they play. None: every screen. Admins always have every screen."
      placeholder={WHOLE_ACCOUNT}
      data={options}
      searchable
      clearable
      {...props}
    />
  );
}

/**
 * A user's groups in the list: an admin has every screen; anyone else's may be changed, asked
 * first in words since widening them is a grant.
 */
export function UserGroupsCell({ user }: { user: UserRecord }) {
  const options = useGroupOptions();
  const refusal = useWriteRefusal();
  const change = useMutation({
    mutationFn: (groups: string[]) =>
      api(userRecordSchema, `/users/${encodeURIComponent(user.id)}`, { method: 'PATCH', body: { groups } }),
  });
  if (user.role === 'admin') return <Text size="sm">{WHOLE_ACCOUNT}</Text>;
  const ask = async (groups: string[]) => {
    const sure = await confirmAction({
      title: `Keep ${user.login} to ${namesOf(groups, options)}?`,
      body: `${user.login} sees and changes only what those screens play, from their next request on.`,
      confirm: 'Change the groups',
    });
    if (sure) change.mutate(groups);
  };
  return (
    <>
      <MultiSelect
        aria-label={`Screen groups of ${user.login}`}
        data={options}
        value={user.groups}
        placeholder={user.groups.length ? undefined : WHOLE_ACCOUNT}
        disabled={refusal !== null || change.isPending}
        title={refusal ?? undefined}
        onChange={(groups) => void ask(groups)}
        clearable
        w={220}
      />
      {change.error && <ErrorAlert error={change.error} />}
    </>
  );
}
