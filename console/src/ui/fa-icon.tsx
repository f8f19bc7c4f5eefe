import type { IconDefinition } from '@fortawesome/fontawesome-common-types';

interface FaIconProps {
  icon: IconDefinition;
  size?: number | string;
  /** Names the icon for assistive technology; without it the icon is decoration. */
  title?: string;
}

/**
 * One Font Awesome icon, imported by itself (`import { faTv } from
 * '@fortawesome/free-solid-svg-icons'`) so that the console's first bundle carries only the icons it
 * draws, not the whole pack the screens bundle.
 */
export function FaIcon({ icon, size = '1em', title }: FaIconProps) {
  const [width, height, , , path] = icon.icon;
  return (
    <svg
      viewBox={`0 0 ${width} ${height}`}
      height={size}
      width={size}
      fill="currentColor"
      role={title ? 'img' : undefined}
      aria-hidden={title ? undefined : true}
      focusable="false"
    >
      {title && <title>{title}</title>}
      {(Array.isArray(path) ? path : [path]).map((d) => (
        <path key={d} d={d} />
      ))}
    </svg>
  );
}
