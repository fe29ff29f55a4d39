import { createContext, useContext } from 'react';
import type { Session } from './api';

export const SessionContext = createContext<Session | null>(null);

/** The person logged in (the console renders its pages only with a session). */
export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession() outside the session');
  return session;
}
