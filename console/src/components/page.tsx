import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api';

/**
 * The page's heading. When a page opens, focus moves to it, so that keyboard and screen-reader users start
 * at the new content, and the window title names the page.
 */
export function PageTitle({ title, children }: { title: string; children?: ComponentChildren }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} — Partner Gateway admin`;
    heading.current?.focus();
  }, [title]);
  return (
    <h1 tabIndex={-1} ref={heading}>
      {children ?? title}
    </h1>
  );
}

export interface Loaded<T> {
  data: T | undefined;
  error: ApiError | undefined;
  loading: boolean;
  reload: () => Promise<void>;
}

/** Loads what a page shows, again whenever `key` changes or `reload` is called. */
export function useLoad<T>(load: () => Promise<T>, key: string): Loaded<T> {
  const [state, setState] = useState<{ key: string; data: T | undefined; error: ApiError | undefined; loading: boolean }>({ key, data: undefined, error: undefined, loading: true });
  const generation = useRef(0);
  const reload = useCallback(async () => {
    const mine = ++generation.current;
    // Reloading the same thing keeps it on screen meanwhile; something else (another page of the audit trail)
    // is not shown until it has arrived.
    setState((previous) => (previous.key === key ? { ...previous, loading: true } : { key, data: undefined, error: undefined, loading: true }));
    try {
      const data = await load();
      if (mine === generation.current) setState({ key, data, error: undefined, loading: false });
    } catch (error) {
      const failure = error instanceof ApiError ? error : new ApiError(0, String(error));
      if (mine === generation.current) setState((previous) => ({ key, data: previous.key === key ? previous.data : undefined, error: failure, loading: false }));
    }
    // `load` is a new closure on every render; `key` says when what it loads has changed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  useEffect(() => {
    void reload();
  }, [reload]);
  // Until the effect has run for a new key, what is in state belongs to the old one.
  if (state.key !== key) return { data: undefined, error: undefined, loading: true, reload };
  return { data: state.data, error: state.error, loading: state.loading, reload };
}

/** What a page shows while loading, or when loading failed. */
export function LoadState({ loaded, what }: { loaded: Loaded<unknown>; what: string }) {
  if (loaded.error) {
    return (
      <div class="alert" role="alert">
        <p class="alert-title">The {what} could not be loaded</p>
        <p>{loaded.error.description}</p>
        <button type="button" onClick={() => void loaded.reload()}>
          Try again
        </button>
      </div>
    );
  }
  if (loaded.loading && loaded.data === undefined) return <p aria-busy="true">Loading the {what}…</p>;
  return null;
}
