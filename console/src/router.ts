import { useEffect, useState } from 'preact/hooks';

/** Where the console is: the hash (`#/partners/acme?x=1`) split into path segments and query. */
export interface Route {
  segments: string[];
  query: URLSearchParams;
}

export function parseHash(hash: string): Route {
  const text = hash.replace(/^#\/?/, '');
  const index = text.indexOf('?');
  const path = index === -1 ? text : text.slice(0, index);
  const segments = path
    .split('/')
    .filter((segment) => segment.length > 0)
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        return segment;
      }
    });
  return { segments, query: new URLSearchParams(index === -1 ? '' : text.slice(index + 1)) };
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseHash(location.hash));
  useEffect(() => {
    const update = () => setRoute(parseHash(location.hash));
    addEventListener('hashchange', update);
    return () => removeEventListener('hashchange', update);
  }, []);
  return route;
}

export function navigate(path: string): void {
  location.hash = path;
}

export function partnerHref(login: string): string {
  return `#/partner/${encodeURIComponent(login)}`;
}
