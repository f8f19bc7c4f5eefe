import { VARIANT_EXAMPLES } from '../../../../../src/shared/variant-examples';
import { VARIANTS, type Variant } from '../../../../../src/shared/variants';
import { chartsComponents } from '../../../../../renderer/src/widgets/group-charts';
import { listsComponents } from '../../../../../renderer/src/widgets/group-lists';
import { numbersComponents } from '../../../../../renderer/src/widgets/group-numbers';

export interface VariantGroup {
  label: string;
  variants: Variant[];
}

/** Pictures, films and pages: the renderer keeps them with its lists, an operator looks for them apart. */
const MEDIA: readonly Variant[] = ['image', 'video', 'iframe'];

function isVariant(name: string): name is Variant {
  return (VARIANTS as readonly string[]).includes(name);
}

/** The renderer's own order (most used first), not the alphabetical one of VARIANTS. */
function ordered(components: object, skip: readonly Variant[] = []): Variant[] {
  return Object.keys(components)
    .filter(isVariant)
    .filter((variant) => !skip.includes(variant));
}

const DRAWN: VariantGroup[] = [
  { label: 'Numbers', variants: ordered(numbersComponents) },
  { label: 'Charts', variants: ordered(chartsComponents) },
  { label: 'Lists and text', variants: ordered(listsComponents, [...MEDIA, 'box']) },
  { label: 'Media and web pages', variants: [...MEDIA] },
];

/**
 * Every variant once, in the renderer's groups; the layout frame and the variants screens cannot
 * draw (map, weather, custom) come last, so no variant is ever missing from the gallery.
 */
export const VARIANT_GROUPS: readonly VariantGroup[] = [
  ...DRAWN,
  {
    label: 'Other',
    variants: VARIANTS.filter((variant) => !DRAWN.some((group) => group.variants.includes(variant))),
  },
];

/** The groups with only the variants whose name or description holds `query` (any case). */
export function filterGroups(query: string): VariantGroup[] {
  const needle = query.trim().toLowerCase();
  if (!needle) return [...VARIANT_GROUPS];
  return VARIANT_GROUPS.map((group) => ({
    ...group,
    variants: group.variants.filter(
      (variant) =>
        variant.includes(needle) || VARIANT_EXAMPLES[variant].description.toLowerCase().includes(needle),
    ),
  })).filter((group) => group.variants.length > 0);
}
