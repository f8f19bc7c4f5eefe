import { Badge, Group, Paper, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import type { Alert, AlertDelivery } from '../../../../src/shared/alert';
import { ErrorAlert } from '../../ui/error-panel';
import { ListTable } from '../../ui/list-table';
import { TimeAgo } from '../../ui/time';
import { incidentsQuery, useNames } from './queries';
import { Section } from './section';
import {
  deliveryProblem,
  deliveryState,
  destinationLabel,
  durationWords,
  incidentWords,
  phaseWords,
  type Names,
} from './words';

/** One message of an incident: its state in a word, to whom, and when or why not. */
function DeliveryLine({ delivery, names }: { delivery: AlertDelivery; names: Names }) {
  const { state, label, color } = deliveryState(delivery);
  const destination = names.destinations.get(delivery.destination_id);
  const to = destination ? destinationLabel(destination) : 'a deleted destination';
  const problem = deliveryProblem(delivery);
  return (
    <Group gap={6} wrap="nowrap" align="flex-start" data-testid="delivery">
      {/* One width for every state, so that the lines' words start in one column. */}
      <Badge color={color} variant="dot" miw={100}>
        {label}
      </Badge>
      <Text size="sm">
        {phaseWords(delivery)} to {to}
        {state === 'delivered' && delivery.delivered_at && (
          <>
            , <TimeAgo iso={delivery.delivered_at} />
          </>
        )}
        {state !== 'delivered' && state !== 'failed' && delivery.next_attempt_at && (
          <>
            , {state === 'waiting' ? 'goes out' : 'next try'} <TimeAgo iso={delivery.next_attempt_at} />
          </>
        )}
        {problem && (
          // The page's error colour, which meets contrast in both schemes (styles.css).
          <Text
            span
            size="sm"
            display="block"
            c={state === 'failed' ? 'var(--mantine-color-error)' : 'dimmed'}
            style={{ overflowWrap: 'anywhere' }}
          >
            {problem}
          </Text>
        )}
      </Text>
    </Group>
  );
}

function Deliveries({ incident, names }: { incident: Alert; names: Names }) {
  return (
    <Stack gap={4}>
      {incident.deliveries.map((delivery) => (
        <DeliveryLine
          key={`${delivery.destination_id}:${delivery.phase}`}
          delivery={delivery}
          names={names}
        />
      ))}
    </Stack>
  );
}

function StateBadge({ incident }: { incident: Alert }) {
  return incident.status === 'firing' ? (
    <Badge color="red" variant="dot" miw="max-content">
      {incidentWords(incident).ongoing}
    </Badge>
  ) : (
    <Badge color="green" variant="dot" miw="max-content">
      Resolved
    </Badge>
  );
}

/** What the incident was about: the event, its screens, scripts or node, and what went wrong. */
function About({ incident }: { incident: Alert }) {
  const words = incidentWords(incident);
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed">
        {words.event}
      </Text>
      <Text size="sm" fw={600} title={words.inFull}>
        {words.about}
      </Text>
      {words.details.map((detail) => (
        <Text key={detail} size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {detail}
        </Text>
      ))}
    </Stack>
  );
}

function Until({ incident }: { incident: Alert }) {
  if (!incident.resolved_at) return <span style={{ whiteSpace: 'nowrap' }}>not yet</span>;
  const lasted = (Date.parse(incident.resolved_at) - Date.parse(incident.started_at)) / 1000;
  return (
    <>
      <TimeAgo iso={incident.resolved_at} />, after {durationWords(lasted)}
    </>
  );
}

/**
 * On a phone each incident is a card: a table there would keep the messages, what an operator
 * opens the history for, off to the right.
 */
function IncidentCard({ incident, names }: { incident: Alert; names: Names }) {
  return (
    <Paper withBorder p="sm" component="li" data-testid="incident">
      <Stack gap={6}>
        <Group justify="space-between" gap="xs">
          <StateBadge incident={incident} />
          <Text size="xs" c="dimmed">
            since <TimeAgo iso={incident.started_at} />
          </Text>
        </Group>
        <About incident={incident} />
        {incident.resolved_at && (
          <Text size="xs" c="dimmed">
            Over <Until incident={incident} />
          </Text>
        )}
        <Deliveries incident={incident} names={names} />
      </Stack>
    </Paper>
  );
}

/** What fired, newest first: what about, since when, until when, and how each message went. */
export function History() {
  const incidents = useQuery(incidentsQuery);
  const names = useNames();
  const phone = useMediaQuery('(max-width: 48em)') ?? false;
  return (
    <Section
      title="History"
      description="Each time a rule fired (screens offline or failing, a script failing, the service unable to write), newest first, and how the messages about it went."
    >
      {incidents.error && <ErrorAlert error={incidents.error} title="The history could not be listed" />}
      {phone ? (
        <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Alert history">
          {incidents.data?.map((incident) => (
            <IncidentCard key={incident.id} incident={incident} names={names} />
          ))}
        </Stack>
      ) : (
        <ListTable
          label="Alert history"
          minWidth={760}
          columns={['State', 'What', 'Since', 'Until', 'Messages']}
        >
          {incidents.data?.map((incident) => (
            <Table.Tr key={incident.id} data-testid="incident">
              <Table.Td>
                <StateBadge incident={incident} />
              </Table.Td>
              <Table.Td>
                <About incident={incident} />
              </Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                <TimeAgo iso={incident.started_at} />
              </Table.Td>
              <Table.Td>
                <Until incident={incident} />
              </Table.Td>
              <Table.Td>
                <Deliveries incident={incident} names={names} />
              </Table.Td>
            </Table.Tr>
          ))}
        </ListTable>
      )}
      {incidents.data?.length === 0 && <Text c="dimmed">No rule has fired yet.</Text>}
    </Section>
  );
}
