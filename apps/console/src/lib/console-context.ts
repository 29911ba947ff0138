import { createContext } from 'preact';
import { useContext } from 'preact/hooks';

import type { ApiClient } from './api.client';
import type { Session } from './session';

export interface ConsoleContext {
  session: Session;
  /** The public API with the team key (absent without one). */
  team?: ApiClient;
  /** The admin API with the admin key (absent without one). */
  admin?: ApiClient;
  setSession: (session: Session) => void;
}

export const Console = createContext<ConsoleContext | undefined>(undefined);

export function useConsole(): ConsoleContext {
  const context = useContext(Console);
  if (!context) throw new Error('useConsole outside the console');
  return context;
}

/** The team API client of a page that needs one (the shell only shows such pages with a team key). */
export function useTeamApi(): ApiClient {
  const { team } = useConsole();
  if (!team) throw new Error('a team page without a team key');
  return team;
}

export function useAdminApi(): ApiClient {
  const { admin } = useConsole();
  if (!admin) throw new Error('an operator page without the admin key');
  return admin;
}
