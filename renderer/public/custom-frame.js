// @ts-check
// The host of a custom widget's code, inside its sandboxed frame (custom-frame.html). A classic
// script, copied as it is: the frame's origin is opaque, and a module script would need CORS.
//
// From the player (the parent frame, and only it): {wallboard: 'code', html, css, script, width,
// height} once, then {wallboard: 'data', data} on every update, {wallboard: 'size', ...} when the
// widget is resized, {wallboard: 'style', variables} with the board's theme as CSS variables, and
// {wallboard: 'ping', seq} every second. To it: {wallboard: 'ready'}, {wallboard: 'pong', seq}
// and {wallboard: 'error', message}.
'use strict';
(() => {
  const MESSAGE_MAX = 500;
  /** @type {((data: unknown) => void)[]} */
  const callbacks = [];
  const size = { width: 0, height: 0 };
  /** @type {{ data: unknown } | null} */
  let latest = null;
  let started = false;

  /** @param {unknown} message */
  const toParent = (message) => window.parent.postMessage(message, '*');

  /** @param {unknown} error */
  const report = (error) => {
    const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    toParent({ wallboard: 'error', message: text.slice(0, MESSAGE_MAX) });
  };

  // Uncaught errors of the code, at its start or in its timers and handlers.
  window.addEventListener('error', (event) => report(event.error ?? event.message));
  window.addEventListener('unhandledrejection', (event) => report(event.reason));

  /** @param {(data: unknown) => void} callback */
  const deliver = (callback) => {
    if (!latest) return;
    try {
      callback(latest.data);
    } catch (error) {
      report(error);
    }
  };

  /** What the code sees: its data now and on every update, and the room it has. */
  const api = Object.freeze({
    /** @param {(data: unknown) => void} callback */
    onData(callback) {
      if (typeof callback !== 'function') throw new TypeError('wallboard.onData takes a function');
      callbacks.push(callback);
      deliver(callback);
    },
    get size() {
      return { width: size.width, height: size.height };
    },
  });
  Object.defineProperty(window, 'wallboard', { value: api, enumerable: true });

  /** @param {{ html?: unknown, css?: unknown, script?: unknown }} code */
  const start = (code) => {
    const style = document.createElement('style');
    style.textContent = String(code.css ?? '');
    document.head.append(style);
    document.body.innerHTML = String(code.html ?? '');
    const script = document.createElement('script');
    script.textContent = String(code.script ?? '');
    document.body.append(script);
  };

  window.addEventListener('message', (event) => {
    if (event.source !== window.parent) return;
    const message = event.data;
    if (typeof message !== 'object' || message === null) return;
    switch (message.wallboard) {
      case 'ping':
        toParent({ wallboard: 'pong', seq: message.seq });
        return;
      case 'code':
        if (started) return;
        started = true;
        size.width = Number(message.width) || 0;
        size.height = Number(message.height) || 0;
        start(message);
        return;
      case 'data':
        latest = { data: message.data };
        callbacks.forEach(deliver);
        return;
      case 'size':
        size.width = Number(message.width) || 0;
        size.height = Number(message.height) || 0;
        return;
      case 'style':
        for (const [name, value] of Object.entries(message.variables ?? {})) {
          if (/^--wallboard-[a-z-]+$/.test(name))
            document.documentElement.style.setProperty(name, String(value));
        }
        return;
    }
  });

  window.addEventListener('DOMContentLoaded', () => toParent({ wallboard: 'ready' }));
})();
