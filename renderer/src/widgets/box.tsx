import type { WidgetProps } from './types';

/** A box is its frame and title only: the body stays empty. */
export function BoxWidget({ width, height }: WidgetProps<'box'>) {
  return <div className="lists-widget lists-box" style={{ width, height }} />;
}
