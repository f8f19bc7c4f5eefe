import { createElement, type ReactNode } from 'react';
import type { Variant } from '../../../src/shared/variants';
import { chartsComponents } from './group-charts';
import { listsComponents } from './group-lists';
import { numbersComponents } from './group-numbers';
import type { VariantComponents, WidgetComponent, WidgetProps } from './types';
import { webComponents } from './group-web';

const COMPONENTS: VariantComponents = {
  ...numbersComponents,
  ...chartsComponents,
  ...listsComponents,
  ...webComponents,
};

export function hasComponent(variant: Variant): boolean {
  return COMPONENTS[variant] !== undefined;
}

/** The variant's drawing of its data, or null when this player has none for it. */
export function renderWidget<V extends Variant>(variant: V, props: WidgetProps<V>): ReactNode {
  const component = COMPONENTS[variant] as WidgetComponent<V> | undefined;
  return component ? createElement(component, props) : null;
}
