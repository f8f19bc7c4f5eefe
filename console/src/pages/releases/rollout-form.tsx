import { Button, Group, MultiSelect, NumberInput, SegmentedControl, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { rolloutSchema, type Release } from '../../../../src/shared/release';
import { api } from '../../api/client';
import { EditModal } from '../../ui/edit-modal';
import { ErrorAlert } from '../../ui/error-panel';
import { tell } from '../../ui/notify';
import { groupsQuery } from '../schedules/queries';
import { KIND_LABELS, shareOf } from './queries';

/** Rolling a release out: to screen groups, or to a share of all screens. */
export function RolloutModal({ release, onClose }: { release: Release | null; onClose: () => void }) {
  const queries = useQueryClient();
  const groups = useQuery(groupsQuery);
  const [to, setTo] = useState<'groups' | 'percentage'>('groups');
  const [groupIds, setGroupIds] = useState<string[]>([]);
  const [percentage, setPercentage] = useState<number>(10);
  const start = useMutation({
    mutationFn: (id: string) =>
      api(rolloutSchema, '/rollouts', {
        method: 'POST',
        body: to === 'groups' ? { release_id: id, group_ids: groupIds } : { release_id: id, percentage },
      }),
    onSuccess: (rollout) => {
      tell(`${rollout.version} goes to ${rollout.progress.targeted} screen(s)`, 'green');
      void queries.invalidateQueries({ queryKey: ['releases'] });
      setGroupIds([]);
      onClose();
    },
  });
  const ready = to === 'groups' ? groupIds.length > 0 : percentage >= 1 && percentage <= 100;
  return (
    <EditModal
      opened={release !== null}
      onClose={() => {
        start.reset();
        onClose();
      }}
      title={release ? `Roll out ${KIND_LABELS[release.kind]} ${release.version}` : ''}
    >
      <Stack gap="sm">
        <SegmentedControl
          aria-label="Roll out to"
          value={to}
          onChange={(value) => setTo(value as 'groups' | 'percentage')}
          data={[
            { value: 'groups', label: 'Screen groups' },
            { value: 'percentage', label: 'A share of screens' },
          ]}
        />
        {to === 'groups' ? (
          <MultiSelect
            label="Groups"
            placeholder="Pick one or more"
            data={(groups.data ?? []).map((group) => ({ value: group.id, label: group.name }))}
            value={groupIds}
            onChange={setGroupIds}
            searchable
          />
        ) : (
          <NumberInput
            label="Share of the screens"
            description="The same screens come first for every release, and raising the share later keeps them"
            suffix="%"
            min={1}
            max={100}
            value={percentage}
            onChange={(value) => setPercentage(shareOf(value))}
          />
        )}
        <Text size="sm" c="dimmed">
          The screens fetch it at once and install it; a screen pinned to a release keeps its pin. A newer
          rollout reaching a screen takes over; rolling this one back gives the screens what they had before.
        </Text>
        {start.error && <ErrorAlert error={start.error} />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button
            disabled={!ready}
            loading={start.isPending}
            onClick={() => release && start.mutate(release.id)}
          >
            Roll out
          </Button>
        </Group>
      </Stack>
    </EditModal>
  );
}
