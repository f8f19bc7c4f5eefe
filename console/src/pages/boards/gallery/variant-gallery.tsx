import './gallery.css';
import { faMagnifyingGlass } from '@fortawesome/free-solid-svg-icons';
import { SimpleGrid, Stack, Text, TextInput, Title, UnstyledButton } from '@mantine/core';
import { useDeferredValue, useId, useMemo, useState } from 'react';
import { VARIANT_EXAMPLES } from '../../../../../src/shared/variant-examples';
import type { Variant } from '../../../../../src/shared/variants';
import { FaIcon } from '../../../ui/fa-icon';
import { filterGroups, type VariantGroup } from './groups';
import VariantSample from './variant-sample';

type OnPick = (variant: Variant) => void;

/**
 * A card whose button holds the variant's name alone, so the name is what an operator (or a test)
 * asks for and all of its text is its name; the button's area is stretched over the whole card
 * (gallery.css), so the sample and the description pick it too.
 */
function VariantCard({ variant, onPick }: { variant: Variant; onPick: OnPick }) {
  const descriptionId = useId();
  return (
    <div className="variant-card">
      <VariantSample variant={variant} />
      <UnstyledButton
        className="variant-card-pick"
        aria-describedby={descriptionId}
        onClick={() => onPick(variant)}
        fw={600}
        ff="monospace"
      >
        {variant}
      </UnstyledButton>
      <Text id={descriptionId} size="sm" c="dimmed">
        {VARIANT_EXAMPLES[variant].description}
      </Text>
    </div>
  );
}

function GroupSection({ group, onPick }: { group: VariantGroup; onPick: OnPick }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId}>
      <Title id={headingId} order={3} size="h5" mb="xs">
        {group.label}
      </Title>
      <SimpleGrid type="container" cols={{ base: 1, '440px': 2, '640px': 3, '900px': 4 }} spacing="sm">
        {group.variants.map((variant) => (
          <VariantCard key={variant} variant={variant} onPick={onPick} />
        ))}
      </SimpleGrid>
    </section>
  );
}

/**
 * Every widget variant, drawn by the player's renderer with its example data, in groups: the
 * operator picks one to add to the board. The search filters by name and description.
 */
export default function VariantGallery({ onPick }: { onPick: OnPick }) {
  const [query, setQuery] = useState('');
  // Typing stays quick: the cards follow the search a moment later.
  const deferredQuery = useDeferredValue(query);
  const groups = useMemo(() => filterGroups(deferredQuery), [deferredQuery]);
  return (
    <Stack gap="md">
      <TextInput
        label="Search widgets"
        placeholder="value, chart, clock…"
        type="search"
        leftSection={<FaIcon icon={faMagnifyingGlass} />}
        value={query}
        onChange={(event) => setQuery(event.currentTarget.value)}
        data-autofocus
      />
      <Stack gap="lg" className="variant-gallery-groups">
        {groups.map((group) => (
          <GroupSection key={group.label} group={group} onPick={onPick} />
        ))}
      </Stack>
      <div role="status">
        {groups.length === 0 && <Text c="dimmed">No widget matches “{deferredQuery.trim()}”.</Text>}
      </div>
    </Stack>
  );
}
