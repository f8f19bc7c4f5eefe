import { Accordion, Code, List, Stack, Text, Title } from '@mantine/core';

const EXAMPLE = `const http = require('wallboard/http');
const { post } = require('wallboard/notifications');
const stats = await http.getJson('https://status.example.com/summary.json', { timeout: 5 });
console.log('open incidents', stats.open);
if (stats.open > (previous.value ?? 0)) {
  await post('ops', '', 'New incident', stats.latest, '1m', 'triangle-exclamation');
}
return { value: stats.open, title: 'Open incidents' };`;

/**
 * What a script may use, beside its editor: the few globals and the two modules of docs/scripts.md
 * (service/scripts/http-library.ts and notifications-library.ts), in short.
 */
export function LibraryReference() {
  return (
    <Stack gap="xs" component="aside" aria-labelledby="library-reference">
      <Title order={2} size="h4" id="library-reference">
        Library
      </Title>
      <Text size="sm">
        The code is the body of an async function: <Code>await</Code> anything, <Code>return</Code> an object
        that fits the flow&apos;s variant (see the Flows page for each variant&apos;s shape). Each run starts
        fresh, in QuickJS (ES2023, no <Code>Intl</Code>, no Node modules, no <Code>fetch</Code>).
      </Text>
      <Accordion multiple defaultValue={['globals', 'http', 'notifications']} variant="separated">
        <Accordion.Item value="globals">
          <Accordion.Control>Globals</Accordion.Control>
          <Accordion.Panel>
            <List size="sm" spacing={4}>
              <List.Item>
                <Code>previous</Code>: the flow&apos;s data before this run (<Code>{'{}'}</Code> at first)
              </List.Item>
              <List.Item>
                <Code>console.log / info / debug / warn / error</Code>: lines of the run&apos;s log (100 at
                most)
              </List.Item>
              <List.Item>
                <Code>setTimeout(fn, ms)</Code>, <Code>clearTimeout(id)</Code>
              </List.Item>
              <List.Item>
                <Code>require(name)</Code>: only the two modules below
              </List.Item>
              <List.Item>
                <Code>secrets.NAME</Code>: a secret of the script (the Secrets section); <Code>***</Code> in
                its place wherever a run shows it
              </List.Item>
            </List>
          </Accordion.Panel>
        </Accordion.Item>
        <Accordion.Item value="http">
          <Accordion.Control>wallboard/http</Accordion.Control>
          <Accordion.Panel>
            <List size="sm" spacing={4}>
              <List.Item>
                <Code>await get(url, {'{ timeout, headers }'})</Code> →{' '}
                <Code>{'{ status, headers, text }'}</Code>, any status
              </List.Item>
              <List.Item>
                <Code>await getJson(url, options)</Code> → the parsed body of a 2xx answer; rejects otherwise
              </List.Item>
              <List.Item>
                <Code>timeout</Code>: seconds or <Code>&apos;2s&apos;</Code>, default 5, at most 30; answers
                up to 1 MiB
              </List.Item>
              <List.Item>
                Public addresses only unless the service runs with <Code>--scripts-http-allow</Code>
              </List.Item>
            </List>
          </Accordion.Panel>
        </Accordion.Item>
        <Accordion.Item value="notifications">
          <Accordion.Control>wallboard/notifications</Accordion.Control>
          <Accordion.Panel>
            <Stack gap={4}>
              <Code block tabIndex={0}>
                {"await post(channel, flow, title, message, duration, icon = '', sound = 'default')"}
              </Code>
              <List size="sm" spacing={4}>
                <List.Item>
                  One of <Code>channel</Code> (a channel&apos;s tag) and <Code>flow</Code> (a flow&apos;s tag)
                  is given, the other is <Code>&apos;&apos;</Code>
                </List.Item>
                <List.Item>
                  <Code>duration</Code>: seconds or <Code>&apos;1m&apos;</Code>; <Code>icon</Code>: a name
                  such as <Code>&apos;bug&apos;</Code>
                </List.Item>
                <List.Item>
                  Resolves <Code>true</Code> when sent, <Code>false</Code> for an unknown channel or flow
                </List.Item>
              </List>
            </Stack>
          </Accordion.Panel>
        </Accordion.Item>
        <Accordion.Item value="limits">
          <Accordion.Control>Limits</Accordion.Control>
          <Accordion.Panel>
            <List size="sm" spacing={4}>
              <List.Item>The run&apos;s timeout (10 s unless set, at most 60 s); 64 MB of memory</List.Item>
              <List.Item>50 library calls per run, 10 of them notifications</List.Item>
              <List.Item>Two scripts run at once; the newest 50 runs are kept</List.Item>
            </List>
          </Accordion.Panel>
        </Accordion.Item>
      </Accordion>
      <Title order={3} size="h5">
        Example
      </Title>
      <Code block tabIndex={0}>
        {EXAMPLE}
      </Code>
      <Text size="xs" c="dimmed">
        The whole guide: docs/scripts.md in the product&apos;s documentation.
      </Text>
    </Stack>
  );
}
