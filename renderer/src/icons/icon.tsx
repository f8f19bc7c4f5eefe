import type { IconDefinition } from '@fortawesome/fontawesome-common-types';
import { fas } from '@fortawesome/free-solid-svg-icons';

/**
 * Font Awesome's free solid icons, bundled so they work offline. Names are accepted with or
 * without the "fa-" prefix, and by the pack's aliases ("warning" for "triangle-exclamation").
 */
const ICONS = new Map<string, IconDefinition>();
for (const definition of Object.values(fas)) {
  ICONS.set(definition.iconName, definition);
  const aliases = definition.icon[2];
  for (const alias of aliases) if (typeof alias === 'string') ICONS.set(alias, definition);
}

export function findIcon(name: string): IconDefinition | undefined {
  return ICONS.get(name.replace(/^fa-/, ''));
}

interface IconProps {
  name: string;
  /** Size in pixels (the icon's height). */
  size?: number | string;
  color?: string;
  title?: string;
  className?: string;
}

/** An icon by name; an unknown name draws nothing rather than breaking the widget. */
export function Icon({ name, size = '1em', color = 'currentColor', title, className }: IconProps) {
  const definition = findIcon(name);
  if (!definition) return null;
  const [width, height, , , path] = definition.icon;
  return (
    <svg
      className={className ? `icon ${className}` : 'icon'}
      viewBox={`0 0 ${width} ${height}`}
      height={size}
      fill={color}
      role={title ? 'img' : undefined}
      aria-hidden={title ? undefined : true}
      aria-label={title}
      data-icon={definition.iconName}
    >
      {Array.isArray(path) ? path.map((d) => <path key={d} d={d} />) : <path d={path} />}
    </svg>
  );
}
