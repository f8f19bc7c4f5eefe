import type { Variant } from '../../../../../src/shared/variants';
import type { CustomCode } from '../../../../../src/shared/web-content';

/**
 * What a new custom widget starts with: a small example that draws its data's `value` and
 * `title`, and says how the code gets its data (docs/player.md, "Custom widgets").
 */
export const CUSTOM_STARTER: CustomCode = {
  html: ['<main>', '  <div id="value">–</div>', '  <div id="title"></div>', '</main>', ''].join('\n'),
  css: [
    'main {',
    '  display: flex;',
    '  flex-direction: column;',
    '  align-items: center;',
    '  justify-content: center;',
    '  height: 100vh;',
    '  background: var(--wallboard-widget-background);',
    '}',
    '#value {',
    '  font-size: 3em;',
    '  font-weight: bold;',
    '}',
    '',
  ].join('\n'),
  script: [
    '// wallboard.onData: called with the flow’s data now and on every update.',
    '// wallboard.size: the room the widget has, {width, height} in pixels.',
    'wallboard.onData((data) => {',
    "  document.getElementById('value').textContent = data.value ?? '–';",
    "  document.getElementById('title').textContent = data.title ?? '';",
    '});',
    '',
  ].join('\n'),
};

/** The code a new widget of `variant` starts with: the example for a custom one, none for the others. */
export function starterCode(variant: Variant): CustomCode | null {
  return variant === 'custom' ? CUSTOM_STARTER : null;
}
