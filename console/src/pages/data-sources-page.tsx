import { Anchor, Badge, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { EditModal } from '../ui/edit-modal';
import { ErrorAlert } from '../ui/error-panel';
import { ListTable } from '../ui/list-table';
import { PageHeader } from '../ui/page-header';
import { WriteButton } from '../ui/write-button';
import { KIND_WORDS } from './data-sources/kinds';
import { sourcesQuery } from './data-sources/queries';
import { SourceForm } from './data-sources/source-form';
import { feedsWords, lastRunWords } from './data-sources/words';

/**
 * Data sources (docs/data-sources.md): connections the service queries on an interval, whose
 * results feed widgets without a script. The list; a source's own page tests and edits it.
 */
export default function DataSourcesPage() {
  const navigate = useNavigate();
  const sources = useQuery(sourcesQuery);
  const [adding, setAdding] = useState(false);
  return (
    <>
      <PageHeader
        title="Data sources"
        description="Connections to a database, Prometheus, a JSON or CSV address, a news feed or a calendar. Wallboard asks them on an interval and puts what they answer into widgets: bind a widget to a source in the board editor."
        actions={<WriteButton onClick={() => setAdding(true)}>New data source</WriteButton>}
      />
      <EditModal opened={adding} onClose={() => setAdding(false)} title="New data source" size="lg">
        <SourceForm
          onCancel={() => setAdding(false)}
          onSaved={(saved) => {
            setAdding(false);
            void navigate(`/data-sources/${encodeURIComponent(saved.id)}`);
          }}
        />
      </EditModal>
      {sources.error && <ErrorAlert error={sources.error} title="The data sources could not be listed" />}
      <ListTable label="The data sources" minWidth={640} columns={['Name', 'Kind', 'Last run', 'Feeds']}>
        {sources.data?.map((source) => {
          const last = lastRunWords(source);
          return (
            <Table.Tr key={source.id}>
              <Table.Td>
                <Anchor component={Link} to={`/data-sources/${encodeURIComponent(source.id)}`}>
                  {source.name}
                </Anchor>
              </Table.Td>
              <Table.Td>{KIND_WORDS[source.kind].label}</Table.Td>
              <Table.Td>
                {last.failed && (
                  <Badge color="red" variant="dot" mr={6}>
                    failing
                  </Badge>
                )}
                <Text span size="sm" c={last.failed ? 'red' : undefined}>
                  {last.text}
                </Text>
              </Table.Td>
              <Table.Td>{feedsWords(source.bindings)}</Table.Td>
            </Table.Tr>
          );
        })}
      </ListTable>
      {sources.data?.length === 0 && (
        <Text c="dimmed">
          No data sources yet. Add one, test a query, then bind a widget to it on a board.
        </Text>
      )}
    </>
  );
}
