/** The team that requests act for when authentication is off (AUTH_ENABLED=false), and that the bootstrap key belongs to. */
export const DEFAULT_TEAM_NAME = 'default';
