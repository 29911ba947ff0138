import { z } from 'zod';

/** `GET /`: the API's identity (docs/compatibility.md#errors). */
export const apiIdentityResponseSchema = z.object({
  message: z.string(),
  documentation_url: z.string(),
  version: z.string(),
});

/** `GET /v2/openapi.json`: an OpenAPI 3.1 document. */
export const openApiDocumentSchema = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.record(z.string(), z.unknown())),
});

/** `GET /v0/health/liveness` and `/readiness` (the reference self-host paths); not ready is a 503 error body. */
export const healthStatusResponseSchema = z.object({ status: z.literal('ok') });
