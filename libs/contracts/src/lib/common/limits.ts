/** Numeric limits of the v2 contract (product spec §8, compat §3 where the spec is silent). */
export const LIMITS = {
  timeoutMs: { min: 1_000, max: 300_000, default: 60_000 },
  waitForMs: { max: 60_000 },
  totalWaitMs: 60_000,
  selectorWaitCountsMs: 1_000,
  maxActions: 50,
  screenshotViewport: { maxWidth: 7_680, maxHeight: 4_320 },
  quality: { min: 1, max: 100 },
  profileName: { min: 1, max: 128 },
  pdfMaxPages: { min: 1, max: 10_000 },
  promptMaxLength: 10_000,
  defaultMaxAgeMs: 172_800_000,
  lockdownMaxAgeMs: 2 * 365 * 24 * 60 * 60 * 1000,
  screenshotLifetimeMs: 24 * 60 * 60 * 1000,
  signedUrlLifetimeMs: 60 * 60 * 1000,
  jsonBodyBytes: 10 * 1024 * 1024,
} as const;
