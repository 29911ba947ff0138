/** Raw rows as the drivers return them (PostgreSQL: bigint/count as strings; PGlite: numbers). */
export type Raw = Record<string, unknown>;

export const num = (value: unknown): number => (value === null || value === undefined ? 0 : Number(value));
export const date = (value: unknown): Date | null =>
  value === null || value === undefined ? null : value instanceof Date ? value : new Date(String(value));
export const json = <T>(value: unknown): T =>
  typeof value === 'string' ? (JSON.parse(value) as T) : (value as T);
