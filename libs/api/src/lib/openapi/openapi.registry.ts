import { errorBodySchema } from '@quarry/contracts';
import { z } from 'zod';

export interface OperationSpec {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** OpenAPI path, e.g. `/v2/scrape/{jobId}`. */
  path: string;
  summary: string;
  tag: string;
  /** Contract of the JSON body, when the operation takes one. */
  body?: z.ZodType;
  /** Contract of the 200 answer, when it has one (else documented as an object). */
  response?: z.ZodType;
  /** Fields of a multipart/form-data body (uploads): a file part or a text part holding JSON. */
  multipart?: { name: string; description: string; file?: boolean; required?: boolean }[];
  /** Path parameters that are UUIDs. */
  uuidParams?: string[];
  /** Reachable without an API key. */
  public?: boolean;
  /** Extra documented statuses besides 200 and the common errors. */
  statuses?: number[];
}

const operations: OperationSpec[] = [];

/** Declares operations for the OpenAPI document; call next to the controller that serves them. */
export function defineOperations(...specs: OperationSpec[]): void {
  for (const spec of specs) {
    if (!operations.some((known) => known.method === spec.method && known.path === spec.path))
      operations.push(spec);
  }
}

const errorBody = z.toJSONSchema(errorBodySchema, { io: 'output', unrepresentable: 'any' });

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized: Invalid token',
  402: 'Payment Required: Insufficient credits',
  403: 'Forbidden',
  404: 'Not Found',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  422: 'Unprocessable Entity',
  429: 'Rate limit exceeded',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

function multipartSchema(fields: NonNullable<OperationSpec['multipart']>): Record<string, unknown> {
  return {
    type: 'object',
    required: fields.filter((field) => field.required).map((field) => field.name),
    properties: Object.fromEntries(
      fields.map((field) => [
        field.name,
        field.file
          ? { type: 'string', format: 'binary', description: field.description }
          : { type: 'string', description: field.description },
      ]),
    ),
  };
}

/** The OpenAPI 3.1 document of every declared operation, generated from the zod contracts. */
export function buildOpenApiDocument(publicUrl: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const spec of operations) {
    const errorStatuses = spec.public ? [500, 503] : [401, 403, 429, 500, 503];
    if (spec.body || spec.multipart) errorStatuses.push(400, 413);
    if (spec.uuidParams?.length) errorStatuses.push(400, 404);
    const success = spec.response
      ? z.toJSONSchema(spec.response, { io: 'output', unrepresentable: 'any' })
      : { type: 'object' };
    const responses: Record<string, unknown> = {
      '200': { description: 'Success', content: { 'application/json': { schema: success } } },
    };
    for (const status of new Set([...errorStatuses, ...(spec.statuses ?? [])])) {
      responses[String(status)] = {
        description: STATUS_TEXT[status] ?? 'Error',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      };
    }
    const parameters = [...spec.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
      name,
      in: 'path',
      required: true,
      schema: spec.uuidParams?.includes(name) ? { type: 'string', format: 'uuid' } : { type: 'string' },
    }));
    paths[spec.path] ??= {};
    paths[spec.path][spec.method] = {
      summary: spec.summary,
      tags: [spec.tag],
      ...(spec.public ? { security: [] } : {}),
      ...(parameters.length ? { parameters } : {}),
      ...(spec.body
        ? {
            requestBody: {
              required: true,
              content: {
                'application/json': {
                  schema: z.toJSONSchema(spec.body, { io: 'input', unrepresentable: 'any' }),
                },
              },
            },
          }
        : {}),
      ...(spec.multipart
        ? {
            requestBody: {
              required: true,
              content: { 'multipart/form-data': { schema: multipartSchema(spec.multipart) } },
            },
          }
        : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Quarry API',
      version: '2',
      description: 'Web pages and documents to clean markdown and structured data.',
    },
    servers: [{ url: publicUrl }],
    security: [{ bearer: [] }],
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: { Error: errorBody },
    },
    paths,
  };
}
