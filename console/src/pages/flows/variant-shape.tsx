import { Accordion, Badge, Code, Stack, Table, Text, Title } from '@mantine/core';
import { VARIANT_EXAMPLES } from '../../../../src/shared/variant-examples';
import { variantFields, variantJsonSchema } from '../../../../src/shared/variant-shapes';
import type { Variant } from '../../../../src/shared/variants';

/**
 * The data a flow of `variant` accepts, from the schemas the service checks it with: its fields
 * as a table, an example to push, and the JSON Schema. docs/widgets.md lists the same for every
 * variant.
 */
export function VariantShape({ variant }: { variant: Variant }) {
  const fields = variantFields(variant);
  const { description, example } = VARIANT_EXAMPLES[variant];
  const described = fields.some((field) => field.description);
  return (
    <Stack gap="xs" data-testid="variant-shape">
      <Title order={3} size="h5">
        The data of a {variant}
      </Title>
      <Text size="sm">{description}</Text>
      <Table.ScrollContainer
        minWidth={560}
        // Focusable, so that a keyboard can scroll it on a narrow screen.
        scrollAreaProps={{
          viewportProps: { tabIndex: 0, role: 'region', 'aria-label': `The fields of a ${variant}` },
        }}
      >
        <Table striped aria-label={`Fields of a ${variant}`}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Field</Table.Th>
              <Table.Th>Type</Table.Th>
              <Table.Th>Limits</Table.Th>
              {described && <Table.Th>About</Table.Th>}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {fields.map((field) => (
              <Table.Tr key={field.name}>
                <Table.Td>
                  <Code>{field.name}</Code> {field.required && <Badge size="xs">required</Badge>}{' '}
                  {field.common && (
                    <Badge size="xs" variant="outline" color="gray">
                      every variant
                    </Badge>
                  )}
                </Table.Td>
                <Table.Td>
                  <Code>{field.type}</Code>
                </Table.Td>
                <Table.Td>{field.constraints ?? ''}</Table.Td>
                {described && <Table.Td>{field.description ?? ''}</Table.Td>}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Title order={4} size="h6">
        Example
      </Title>
      <Code block tabIndex={0} data-testid="variant-example">
        {JSON.stringify(example, null, 2)}
      </Code>
      <Accordion variant="contained">
        <Accordion.Item value="schema">
          <Accordion.Control>JSON Schema</Accordion.Control>
          <Accordion.Panel>
            <Code block tabIndex={0}>
              {JSON.stringify(variantJsonSchema(variant), null, 2)}
            </Code>
          </Accordion.Panel>
        </Accordion.Item>
      </Accordion>
      <Text size="xs" c="dimmed">
        Every variant&apos;s shape with an example: docs/widgets.md. Push data with{' '}
        <Code>PUT /flows/&lt;tag&gt;/metrics</Code> or return it from a script.
      </Text>
    </Stack>
  );
}
