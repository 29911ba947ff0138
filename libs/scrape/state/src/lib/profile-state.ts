/** A cookie as stored in a profile (the fields Chromium needs to restore it). */
export interface StoredCookie {
  name: string;
  value: string;
  domain: string;
  path: string;
  /** Seconds since the epoch; -1 for a session cookie. */
  expires: number;
  httpOnly: boolean;
  secure: boolean;
  sameSite?: 'Strict' | 'Lax' | 'None';
}

/** Browser state kept in a profile: cookies, and localStorage by origin. */
export interface ProfileState {
  cookies: StoredCookie[];
  origins: Record<string, Record<string, string>>;
}

export const EMPTY_PROFILE: ProfileState = { cookies: [], origins: {} };

/** Upper bounds that keep one profile row small. */
export const PROFILE_LIMITS = {
  cookies: 500,
  origins: 50,
  itemsPerOrigin: 500,
  valueBytes: 64 * 1024,
} as const;

export function normalizeProfileState(value: unknown): ProfileState {
  const state = (value ?? {}) as Partial<ProfileState>;
  return {
    cookies: Array.isArray(state.cookies) ? state.cookies.slice(0, PROFILE_LIMITS.cookies) : [],
    origins: state.origins && typeof state.origins === 'object' ? state.origins : {},
  };
}

/** Merges what a session saw into the stored state: its cookies replace all, its origins replace theirs. */
export function mergeProfileState(previous: ProfileState, session: ProfileState): ProfileState {
  const origins: Record<string, Record<string, string>> = { ...previous.origins };
  for (const [origin, items] of Object.entries(session.origins)) {
    const bounded: Record<string, string> = {};
    for (const [key, item] of Object.entries(items).slice(0, PROFILE_LIMITS.itemsPerOrigin)) {
      if (item.length <= PROFILE_LIMITS.valueBytes) bounded[key] = item;
    }
    origins[origin] = bounded;
  }
  const kept = Object.keys(origins).slice(-PROFILE_LIMITS.origins);
  return {
    cookies: session.cookies.slice(0, PROFILE_LIMITS.cookies),
    origins: Object.fromEntries(kept.map((origin) => [origin, origins[origin]])),
  };
}
