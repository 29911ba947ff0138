import type { Type } from '@nestjs/common';
import { PATH_METADATA } from '@nestjs/common/constants';
import { z } from 'zod';

import { errorBodySchema, type openApiDocumentSchema } from '@quarry/contracts';

import { type MultipartField, ROUTE_SPEC, type RouteSpec } from './route.decorator';

export type OpenApiDocument = z.output<typeof openApiDocumentSchema>;

/** A documented operation: a route's spec with its full OpenAPI path (`/v2/scrape/{jobId}`). */
export interface DocumentedRoute {
  path: string;
  spec: RouteSpec;
}

/** The routes of these controllers that carry a @Route spec, in declaration order. */
export function documentedRoutes(controllers: readonly Type<unknown>[]): DocumentedRoute[] {
  const routes: DocumentedRoute[] = [];
  for (const controller of controllers) {
    const base = String(Reflect.getMetadata(PATH_METADATA, controller) ?? '');
    for (const name of Object.getOwnPropertyNames(controller.prototype)) {
      const handler: unknown = controller.prototype[name];
      if (name === 'constructor' || typeof handler !== 'function') continue;
      const spec = Reflect.getMetadata(ROUTE_SPEC, handler) as RouteSpec | undefined;
      if (!spec) continue;
      const path = `/${base}/${spec.path ?? ''}`
        .replace(/\/+/g, '/')
        .replace(/(.)\/$/, '$1')
        .replace(/:(\w+)/g, '{$1}');
      routes.push({ path, spec });
    }
  }
  return routes;
}

const errorBody = plainTuples(z.toJSONSchema(errorBodySchema, { io: 'output', unrepresentable: 'any' }));

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

/** The query parameters of a zod object schema, one OpenAPI parameter per property. */
function queryParameters(query: z.ZodType | undefined): Record<string, unknown>[] {
  if (!query) return [];
  const schema = jsonSchema(query, 'input') as { properties?: Record<string, unknown>; required?: string[] };
  return Object.entries(schema.properties ?? {}).map(([name, property]) => ({
    name,
    in: 'query',
    required: schema.required?.includes(name) ?? false,
    schema: property,
  }));
}

function multipartSchema(fields: readonly MultipartField[]): Record<string, unknown> {
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

const jsonSchema = (schema: z.ZodType, io: 'input' | 'output') =>
  plainTuples(z.toJSONSchema(schema, { io, unrepresentable: 'any' }));

/**
 * Tuples whose members share one schema (a bbox of four numbers, a span of two integers, an empty
 * list) as `items` with `minItems`/`maxItems` instead of `prefixItems`: the same constraint, and one
 * that OpenAPI tools without JSON Schema 2020-12 tuples read (schemathesis, client generators,
 * documentation renderers). Tuples of mixed members keep `prefixItems`.
 */
export function plainTuples<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map((item) => plainTuples(item)) as T;
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) out[key] = plainTuples(value);
  const members = out['prefixItems'];
  if (Array.isArray(members) && out['items'] === false) {
    const first = JSON.stringify(members[0] ?? {});
    if (members.every((member) => JSON.stringify(member) === first)) {
      delete out['prefixItems'];
      out['items'] = members[0] ?? {};
      out['minItems'] = members.length;
      out['maxItems'] = members.length;
    }
  }
  return out as T;
}

/** The OpenAPI 3.1 document of the given routes, generated from their @Route contracts. */
export function buildOpenApiDocument(publicUrl: string, routes: readonly DocumentedRoute[]): OpenApiDocument {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const { path, spec } of routes) {
    const isPublic = spec.auth === 'public';
    const isOperator = spec.auth === 'operator';
    const uuidParams = typeof spec.auth === 'string' ? [] : (spec.auth.uuidParams ?? []);
    // The admin API has no rate limit; 403 is its answer while ADMIN_API_KEY is unset.
    const errorStatuses = isPublic
      ? [500, 503]
      : isOperator
        ? [401, 403, 500, 503]
        : [401, 403, 429, 500, 503];
    if (spec.body || spec.multipart || spec.query) errorStatuses.push(400);
    if (spec.body || spec.multipart) errorStatuses.push(413);
    if (uuidParams.length) errorStatuses.push(400, 404);
    const responses: Record<string, unknown> = {
      [String(spec.status ?? 200)]: {
        description: 'Success',
        content: { 'application/json': { schema: jsonSchema(spec.response, 'output') } },
      },
    };
    for (const status of [...new Set([...errorStatuses, ...(spec.statuses ?? [])])].sort()) {
      responses[String(status)] = {
        description: STATUS_TEXT[status] ?? 'Error',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      };
    }
    const parameters: Record<string, unknown>[] = [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
      name,
      in: 'path',
      required: true,
      schema: uuidParams.includes(name) ? { type: 'string', format: 'uuid' } : { type: 'string' },
    }));
    parameters.push(...queryParameters(spec.query));
    paths[path] ??= {};
    paths[path][spec.method] = {
      summary: spec.summary,
      tags: [spec.tag],
      ...(isPublic ? { security: [] } : isOperator ? { security: [{ operator: [] }] } : {}),
      ...(parameters.length ? { parameters } : {}),
      ...(spec.body
        ? {
            requestBody: {
              required: true,
              content: {
                'application/json': {
                  schema: jsonSchema(spec.body, 'input'),
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
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer' },
        operator: {
          type: 'http',
          scheme: 'bearer',
          description: "The deployment's ADMIN_API_KEY: the admin API (/admin/v1) takes it and no team key.",
        },
      },
      schemas: { Error: errorBody },
    },
    paths,
  };
}
