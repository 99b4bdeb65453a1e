/**
 * What the console tells the operator after an action ("Partner acme is now blocked"): shown in a banner
 * and read out by screen readers through its live region.
 */
type Listener = (message: string) => void;
const listeners = new Set<Listener>();

export function announce(message: string): void {
  for (const listener of listeners) listener(message);
}

export function onAnnounce(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
