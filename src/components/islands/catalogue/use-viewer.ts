import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { $session, hydrateSessionFromCookies } from '../../../stores/session.ts';

export interface Viewer {
  /** False until hydrated: the first render shows what the server rendered. */
  ready: boolean;
  loggedIn: boolean;
  /** The user's _id once known in the browser. */
  id: string | null;
  /** The user's public number once known in the browser. */
  userId: number | null;
}

/**
 * The viewer as the server rendered it (`initialLoggedIn`, from the user-info cookie), then as the
 * session store says once hydrated, so the first render matches the server's HTML.
 */
export function useViewer(initialLoggedIn: boolean): Viewer {
  const session = useStore($session);
  const [ready, setReady] = useState(false);
  useEffect(() => {
    // The header hydrates the session too; whichever island runs first reads the cookies.
    if (!$session.get()) hydrateSessionFromCookies();
    setReady(true);
  }, []);
  if (!ready) return { ready, loggedIn: initialLoggedIn, id: null, userId: null };
  return { ready, loggedIn: session !== null, id: session?._id ?? null, userId: session?.userId ?? null };
}
