import { type ComponentChildren, createContext } from 'preact';
import { useContext, useEffect, useState } from 'preact/hooks';
import {
  api,
  call,
  hasAccessToken,
  logIn,
  logOut,
  onSessionChange,
  refreshSession,
  type Schemas,
} from './api.ts';

export type User = Schemas['User'];

interface Session {
  /** undefined while the page is still finding out whether a session cookie exists */
  user: User | null | undefined;
  logIn(email: string, password: string): Promise<User>;
  logOut(): Promise<void>;
  /** reads the user again (after a profile change) */
  reload(): Promise<void>;
}

const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside SessionProvider');
  return session;
}

const fetchMe = () => call(() => api.GET('/api/v1/accounts/me/'));

export function SessionProvider({ children }: { children: ComponentChildren }) {
  const [user, setUser] = useState<User | null | undefined>(undefined);

  useEffect(() => {
    // A page load starts with no access token: the session cookie, if any, gives one.
    refreshSession()
      .then((ok) => (ok ? fetchMe() : null))
      .then(setUser, () => setUser(null));
    return onSessionChange(() => {
      if (!hasAccessToken()) setUser(null);
    });
  }, []);

  const session: Session = {
    user,
    async logIn(email, password) {
      await logIn(email, password);
      const me = await fetchMe();
      setUser(me);
      return me;
    },
    async logOut() {
      await logOut();
      setUser(null);
    },
    async reload() {
      setUser(await fetchMe());
    },
  };
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}
