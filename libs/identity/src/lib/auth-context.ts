/** Who is calling: the team owning the key, and what the key may do. */
export interface AuthContext {
  teamId: string;
  teamName: string;
  apiKeyId?: string;
  scopes: readonly string[];
  zeroDataRetention: boolean;
  rateLimitPerMinute?: number;
  concurrencyLimit?: number;
}

export function hasScope(context: AuthContext, scope: string): boolean {
  return context.scopes.includes('*') || context.scopes.includes(scope);
}
