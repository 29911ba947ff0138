/**
 * The keys the user signed in with, kept in this tab's sessionStorage only (gone when the tab
 * closes; never in a URL, a cookie or a log): the team key for the team pages, the deployment's
 * admin key for the operator pages.
 */
export interface Session {
  teamKey?: string;
  adminKey?: string;
}

const STORAGE_KEY = 'quarry.console.session';

export function loadSession(storage: Pick<Storage, 'getItem'> = sessionStorage): Session {
  try {
    const parsed = JSON.parse(storage.getItem(STORAGE_KEY) ?? '{}') as Session;
    return {
      ...(typeof parsed.teamKey === 'string' ? { teamKey: parsed.teamKey } : {}),
      ...(typeof parsed.adminKey === 'string' ? { adminKey: parsed.adminKey } : {}),
    };
  } catch {
    return {};
  }
}

export function saveSession(
  session: Session,
  storage: Pick<Storage, 'setItem' | 'removeItem'> = sessionStorage,
): void {
  if (!session.teamKey && !session.adminKey) storage.removeItem(STORAGE_KEY);
  else storage.setItem(STORAGE_KEY, JSON.stringify(session));
}
