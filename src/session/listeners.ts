/** Listener sets as PtySession and Session keep them. */
export type Listener<T> = (value: T) => void;

/** Adds `listener` to `listeners`; returns what removes it. */
export function subscribe<T>(listeners: Set<Listener<T>>, listener: Listener<T>): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Subscribes to a one-time event whose value is `happened` once it has happened: then the listener
 * gets it at once (in a microtask), so a late subscriber cannot miss it, and there is nothing to
 * remove.
 */
export function subscribeOnce<T>(happened: T | undefined, listeners: Set<Listener<T>>, listener: Listener<T>): () => void {
  if (happened) {
    queueMicrotask(() => listener(happened));
    return () => {};
  }
  return subscribe(listeners, listener);
}
