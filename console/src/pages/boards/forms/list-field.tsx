import { faArrowDown, faArrowUp, faPlus, faTrash } from '@fortawesome/free-solid-svg-icons';
import { ActionIcon, Box, Button, Fieldset, Group, NumberInput, Paper, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { FaIcon } from '../../../ui/fa-icon';
import type { ControlProps, GroupProps } from './control-props';
import type { FormField } from './form-model';
import { isRecord, moved, withItem, withKey } from './form-values';
import { pathOf } from './problems';

/** Items drawn at first: a map's thousands of markers would be thousands of fieldsets. */
const SHOWN = 50;

/** A new item that fits as far as it can: its required fields filled with a neutral value. */
export function emptyOf(field: FormField): unknown {
  switch (field.kind) {
    case 'number':
    case 'integer':
      return field.min !== undefined && field.min > 0 ? field.min : 0;
    case 'numbers':
    case 'list':
      return [];
    case 'pair':
      return [0, 0];
    case 'color':
      return '#888888';
    case 'boolean':
      return false;
    case 'choice':
      return field.choices?.[0]?.value ?? '';
    case 'object':
      return Object.fromEntries(
        (field.fields ?? []).filter((part) => part.required).map((part) => [part.key, emptyOf(part)]),
      );
    default:
      return '';
  }
}

/** The group's own problem (a list too long, a field missing in an object), said under its legend. */
function GroupProblem({ message }: { message: string | undefined }) {
  return message ? (
    <Text size="sm" c="var(--mantine-color-error)" mb="xs">
      {message}
    </Text>
  ) : null;
}

/** Moves an item up or down its list, or removes it. */
function ItemActions({
  name,
  disabled,
  first,
  last,
  onMove,
  onRemove,
}: {
  name: string;
  disabled: boolean;
  first: boolean;
  last: boolean;
  onMove: (by: number) => void;
  onRemove: () => void;
}) {
  return (
    <Group gap={4} wrap="nowrap" mb={2}>
      <ActionIcon
        variant="subtle"
        aria-label={`Move ${name} up`}
        disabled={disabled || first}
        onClick={() => onMove(-1)}
      >
        <FaIcon icon={faArrowUp} />
      </ActionIcon>
      <ActionIcon
        variant="subtle"
        aria-label={`Move ${name} down`}
        disabled={disabled || last}
        onClick={() => onMove(1)}
      >
        <FaIcon icon={faArrowDown} />
      </ActionIcon>
      <ActionIcon
        variant="subtle"
        color="red"
        aria-label={`Remove ${name}`}
        disabled={disabled}
        onClick={onRemove}
      >
        <FaIcon icon={faTrash} />
      </ActionIcon>
    </Group>
  );
}

/** A list's items, each with its controls, moved up and down, removed; and an item added at the end. */
export function ListField({ field, value, onChange, path, problems, disabled, label, Control }: GroupProps) {
  const [all, setAll] = useState(false);
  const item = field.item;
  if (!item) return null;
  const items = Array.isArray(value) ? (value as unknown[]) : [];
  const shown = all ? items : items.slice(0, SHOWN);
  const name = label ?? field.label;
  const change = (next: unknown[]) => onChange(next.length === 0 && !field.required ? undefined : next);
  return (
    <Fieldset legend={name} variant="unstyled">
      {field.help && (
        <Text size="xs" c="dimmed" mb="xs">
          {field.help}
        </Text>
      )}
      <GroupProblem message={problems.get(path)} />
      <Stack gap="xs">
        {shown.map((current, index) => {
          const itemName = `${item.label} ${index + 1}`;
          const grouped = item.kind === 'object' || item.kind === 'list' || item.kind === 'pair';
          const actions = (
            <ItemActions
              name={itemName}
              disabled={disabled}
              first={index === 0}
              last={index === items.length - 1}
              onMove={(by) => change(moved(items, index, by))}
              onRemove={() => change(withItem(items, index, undefined))}
            />
          );
          const control = (
            <Control
              field={item}
              value={current}
              // A group is named by its frame's heading; a single field by its own label.
              label={grouped ? '' : itemName}
              onChange={(next) => change(withItem(items, index, next === undefined ? emptyOf(item) : next))}
              path={pathOf(path, index)}
              problems={problems}
              disabled={disabled}
            />
          );
          return grouped ? (
            <Paper key={index} withBorder p="xs">
              <Group justify="space-between" gap="xs" mb={4} wrap="nowrap">
                <Text size="sm" fw={500}>
                  {itemName}
                </Text>
                {actions}
              </Group>
              {control}
            </Paper>
          ) : (
            <Group key={index} gap="xs" align="flex-end" wrap="nowrap">
              <Box flex={1}>{control}</Box>
              {actions}
            </Group>
          );
        })}
      </Stack>
      <Group gap="xs" mt="xs">
        <Button
          variant="light"
          size="xs"
          leftSection={<FaIcon icon={faPlus} />}
          disabled={disabled}
          onClick={() => change([...items, emptyOf(item)])}
        >
          {name
            ? `Add ${item.label.toLowerCase()} to ${name.toLowerCase()}`
            : `Add ${item.label.toLowerCase()}`}
        </Button>
        {items.length > shown.length && (
          <Button variant="subtle" size="xs" onClick={() => setAll(true)}>
            Show all {items.length}
          </Button>
        )}
      </Group>
    </Fieldset>
  );
}

/** An object's fields, together. */
export function ObjectField({
  field,
  value,
  onChange,
  path,
  problems,
  disabled,
  label,
  Control,
}: GroupProps) {
  const name = label ?? field.label;
  const fields = (
    <Stack gap="xs">
      <GroupProblem message={problems.get(path)} />
      {(field.fields ?? []).map((part) => (
        <Control
          key={part.key}
          field={part}
          value={isRecord(value) ? value[part.key] : undefined}
          onChange={(next) => onChange(withKey(value, part.key, next))}
          path={pathOf(path, part.key)}
          problems={problems}
          disabled={disabled}
        />
      ))}
    </Stack>
  );
  // An item of a list is already framed and named by the list.
  return name ? (
    <Fieldset legend={name} variant="unstyled">
      {fields}
    </Fieldset>
  ) : (
    fields
  );
}

/** Two numbers that go together (`[lat, lon]`, `[time, value]`). */
export function PairField({ field, value, onChange, path, problems, disabled, label }: ControlProps) {
  const pair = Array.isArray(value) ? (value as unknown[]) : [];
  const [first, second] = field.parts ?? ['First', 'Second'];
  const name = label ?? field.label;
  return (
    <Fieldset legend={name} variant="unstyled">
      <GroupProblem message={problems.get(path)} />
      <Group grow gap="xs">
        {[first, second].map((part, index) => (
          <NumberInput
            key={part}
            label={part}
            value={typeof pair[index] === 'number' ? pair[index] : ''}
            disabled={disabled}
            error={problems.get(pathOf(path, index))}
            onChange={(next) => {
              const copy = [pair[0] ?? 0, pair[1] ?? 0];
              copy[index] = typeof next === 'number' ? next : 0;
              onChange(copy);
            }}
          />
        ))}
      </Group>
    </Fieldset>
  );
}
