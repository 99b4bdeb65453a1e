import { Window } from 'happy-dom';

/** The globals Preact and the console's components read, set from one happy-dom window. */
const GLOBALS = [
  'window',
  'document',
  'navigator',
  'Node',
  'Element',
  'HTMLElement',
  'HTMLDialogElement',
  'Event',
  'InputEvent',
  'SubmitEvent',
  'requestAnimationFrame',
  'cancelAnimationFrame',
  'sessionStorage',
  'fetch',
] as const;

/**
 * A DOM for a component test: a happy-dom window whose globals Preact renders with, and a container in its body;
 * `close()` puts the globals back as they were and closes the window. The page is at `url` (a loopback origin):
 * the console's relative admin calls go there through the window's fetch, over HTTP.
 *
 * @example
 * ```ts
 * const dom = openDom();
 * render(h(MyForm, {}), dom.container as unknown as HTMLElement); // happy-dom's element, as the DOM's types see it
 * await dom.close();
 * ```
 */
export function openDom(url = 'http://127.0.0.1/console/'): { window: Window; container: ReturnType<Window['document']['createElement']>; close: () => Promise<void> } {
  const window = new Window({ url });
  const saved = new Map<string, PropertyDescriptor | undefined>();
  for (const name of GLOBALS) {
    saved.set(name, Object.getOwnPropertyDescriptor(globalThis, name));
    const value = (window as unknown as Record<string, unknown>)[name];
    Object.defineProperty(globalThis, name, { value: typeof value === 'function' && /^[a-z]/.test(name) ? value.bind(window) : value, configurable: true, writable: true });
  }
  const container = window.document.createElement('div');
  window.document.body.appendChild(container);
  return {
    window,
    container,
    async close() {
      for (const [name, descriptor] of saved) {
        if (descriptor) Object.defineProperty(globalThis, name, descriptor);
        else delete (globalThis as Record<string, unknown>)[name];
      }
      await window.happyDOM.close();
    },
  };
}
