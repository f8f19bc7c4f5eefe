// The whole pack, by the name console/vite.config.ts keeps out of the first bundle.
import { fas } from '@fortawesome/free-solid-svg-icons/index.js';
import {
  Group,
  Input,
  SimpleGrid,
  Text,
  TextInput,
  Tooltip,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { useDeferredValue, useState, type ReactNode } from 'react';
import { Icon } from '../../../../renderer/src/icons/icon';

/**
 * The bundled icon set (Font Awesome's free solid icons, what the screens draw by name), with the
 * aliases each answers to. This module and the renderer's icon module carry the whole pack: they
 * are loaded by the notifications page only, never by the console's shell.
 */
interface IconEntry {
  name: string;
  aliases: string[];
}

const ENTRIES: readonly IconEntry[] = (() => {
  const byName = new Map<string, IconEntry>();
  for (const definition of Object.values(fas)) {
    const aliases = definition.icon[2].filter((alias): alias is string => typeof alias === 'string');
    byName.set(definition.iconName, { name: definition.iconName, aliases });
  }
  return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
})();

/** A grid of every icon would be ~1,400 buttons: a search narrows it to the first matches. */
const SHOWN = 60;

export function matchingIcons(query: string): IconEntry[] {
  const words = query.trim().toLowerCase().replace(/^fa-/, '').split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...ENTRIES];
  return ENTRIES.filter((entry) =>
    words.every((word) => entry.name.includes(word) || entry.aliases.some((alias) => alias.includes(word))),
  );
}

interface IconPickerProps {
  value: string;
  onChange: (name: string) => void;
  error?: string;
  disabled?: boolean;
}

/** Picks one icon by name from the bundled set, or none; the search is over names and aliases. */
export default function IconPicker({ value, onChange, error, disabled }: IconPickerProps) {
  const [query, setQuery] = useState('');
  const deferred = useDeferredValue(query);
  const matches = matchingIcons(deferred);
  const shown = matches.slice(0, SHOWN);
  return (
    <Input.Wrapper label="Icon" error={error} description={value ? `Chosen: ${value}` : 'No icon'}>
      <TextInput
        mt={4}
        aria-label="Search the icons"
        placeholder="Search the icons (bug, warning, truck…)"
        type="search"
        value={query}
        onChange={(event) => setQuery(event.currentTarget.value)}
        disabled={disabled}
      />
      <SimpleGrid
        cols={{ base: 6, xs: 8, sm: 10 }}
        spacing={4}
        verticalSpacing={4}
        mt="xs"
        role="group"
        aria-label="Icons"
      >
        <IconChoice label="No icon" selected={value === ''} onPick={() => onChange('')} disabled={disabled}>
          <Text size="xs">none</Text>
        </IconChoice>
        {shown.map((entry) => (
          <IconChoice
            key={entry.name}
            label={entry.name}
            selected={value === entry.name}
            onPick={() => onChange(entry.name)}
            disabled={disabled}
          >
            <Icon name={entry.name} size={20} />
          </IconChoice>
        ))}
      </SimpleGrid>
      <Group mt={4}>
        <Text size="xs" c="dimmed" aria-live="polite">
          {matches.length === 0
            ? 'No icon matches.'
            : matches.length > SHOWN
              ? `${SHOWN} of ${matches.length} icons shown: search to narrow them.`
              : `${matches.length} icon${matches.length === 1 ? '' : 's'}.`}
        </Text>
      </Group>
    </Input.Wrapper>
  );
}

function IconChoice({
  label,
  selected,
  onPick,
  disabled,
  children,
}: {
  label: string;
  selected: boolean;
  onPick: () => void;
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <Tooltip label={label} openDelay={300}>
      <UnstyledButton
        onClick={onPick}
        aria-pressed={selected}
        disabled={disabled}
        style={{
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          aspectRatio: '1',
          borderRadius: 'var(--mantine-radius-sm)',
          border: `1px solid ${selected ? 'var(--mantine-primary-color-filled)' : 'var(--mantine-color-default-border)'}`,
          background: selected ? 'var(--mantine-primary-color-light)' : undefined,
          color: 'var(--mantine-color-text)',
          opacity: disabled ? 0.5 : 1,
        }}
      >
        {children}
        <VisuallyHidden>{label}</VisuallyHidden>
      </UnstyledButton>
    </Tooltip>
  );
}
