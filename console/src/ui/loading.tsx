import { Loader, type LoaderProps } from '@mantine/core';

/**
 * A spinner that says what is loading. A status, so that its label is read out: a label on
 * Mantine's bare span is an attribute no role permits there (axe's aria-prohibited-attr), and
 * screen readers skip it.
 */
export function Loading({ label, size }: { label: string; size?: LoaderProps['size'] }) {
  return <Loader role="status" aria-label={label} size={size} />;
}
