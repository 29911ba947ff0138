import 'reflect-metadata';

import { Controller, type Type } from '@nestjs/common';
import { MODULE_METADATA } from '@nestjs/common/constants';
import { z } from 'zod';

import { OperatorApiModule } from '../admin/operator-api.module';
import { ApiModule } from '../api.module';
import { PARSE_UPLOAD_ROUTE } from '../parse/parse-upload.route';
import { buildOpenApiDocument, documentedRoutes, plainTuples } from './openapi.util';
import { Route } from './route.decorator';

interface Operation {
  tags: string[];
  security?: Record<string, string[]>[];
  responses: Record<string, { content?: Record<string, { schema?: Record<string, unknown> }> }>;
}

// The controllers the gateway and the one-process server serve: the public API and the admin API.
const controllers = [ApiModule, OperatorApiModule].flatMap(
  (module) => (Reflect.getMetadata(MODULE_METADATA.CONTROLLERS, module) ?? []) as Type<unknown>[],
);
const document = buildOpenApiDocument('http://test', [...documentedRoutes(controllers), PARSE_UPLOAD_ROUTE]);
const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(
    ([method, operation]) => [`${method.toUpperCase()} ${path}`, operation as Operation] as const,
  ),
);

describe('the served OpenAPI document', () => {
  it('is built from the @Route declarations of every API controller', () => {
    expect(operations.length).toBeGreaterThanOrEqual(70);
    expect(operations.map(([name]) => name)).toEqual(
      expect.arrayContaining([
        'POST /v2/scrape',
        'GET /v2/crawl/{jobId}',
        'PUT /v2/parse/upload/{uploadId}',
        'POST /v1/scrape',
        'GET /admin/v1/teams',
        'DELETE /admin/v1/keys/{keyId}',
      ]),
    );
  });

  it('documents the admin API under its own tag and security scheme (ADMIN_API_KEY)', () => {
    const admin = operations.filter(([name]) => name.includes(' /admin/v1/'));
    expect(admin.map(([name]) => name)).toEqual([
      'GET /admin/v1/teams',
      'POST /admin/v1/teams',
      'PATCH /admin/v1/teams/{teamId}',
      'POST /admin/v1/teams/{teamId}/credits',
      'GET /admin/v1/teams/{teamId}/keys',
      'POST /admin/v1/teams/{teamId}/keys',
      'DELETE /admin/v1/keys/{keyId}',
      'GET /admin/v1/system',
    ]);
    for (const [, operation] of admin) {
      expect(operation.tags).toEqual(['admin']);
      expect(operation.security).toEqual([{ operator: [] }]);
      expect(Object.keys(operation.responses)).not.toContain('429');
    }
    const { securitySchemes } = document['components'] as { securitySchemes: Record<string, unknown> };
    expect(Object.keys(securitySchemes)).toEqual(['bearer', 'operator']);
    // Every other operation keeps the team key (or none, when public).
    for (const [, operation] of operations.filter(([name]) => !name.includes(' /admin/')))
      expect(operation.security ?? [{ bearer: [] }]).not.toContainEqual({ operator: [] });
  });

  it.each(operations)('%s documents its success body with a schema of its own', (_name, operation) => {
    const success = Object.entries(operation.responses).filter(([status]) => status.startsWith('2'));
    expect(success).toHaveLength(1);
    const schema = success[0][1].content?.['application/json']?.schema ?? {};
    // A described body: typed properties, not the bare `{type: 'object'}` of an undocumented answer.
    expect(
      Object.keys((schema['properties'] as Record<string, unknown> | undefined) ?? {}).length,
    ).toBeGreaterThan(0);
  });

  it.each(operations)('%s documents its errors in the error shape', (_name, operation) => {
    const errors = Object.entries(operation.responses).filter(([status]) => !status.startsWith('2'));
    expect(errors.map(([status]) => status)).toEqual(expect.arrayContaining(['500', '503']));
    for (const [, response] of errors)
      expect(response.content?.['application/json']?.schema).toEqual({ $ref: '#/components/schemas/Error' });
  });

  it('lists query parameters from the route contract', () => {
    const list = (
      document.paths['/v2/team/jobs'] as Record<string, { parameters?: { name: string; in: string }[] }>
    )['get'];
    expect(
      list.parameters?.filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name),
    ).toEqual(expect.arrayContaining(['kind', 'limit']));
  });

  it('writes tuples of one member schema as items with a length (read by tools without prefixItems)', () => {
    const text = JSON.stringify(document);
    // every tuple of the API has members of one schema: bbox, markdownSpan, an empty urlTrace
    expect(text).not.toContain('prefixItems');
    expect(text).toContain(
      '"bbox":{"anyOf":[{"type":"array","items":{"type":"number"},"minItems":4,"maxItems":4},{"type":"null"}]}',
    );
    expect(plainTuples(z.toJSONSchema(z.tuple([]), { io: 'output' }))).toMatchObject({
      type: 'array',
      items: {},
      maxItems: 0,
    });
    // members of different schemas keep prefixItems
    expect(plainTuples(z.toJSONSchema(z.tuple([z.string(), z.number()]), { io: 'output' }))).toMatchObject({
      prefixItems: [{ type: 'string' }, { type: 'number' }],
      items: false,
    });
  });
});

/** Compile-time contract: `tsc` fails when a handler's answer stops being checked against its response schema. */
@Controller('type-test')
export class TypeTestController {
  @Route({ method: 'get', summary: 'fits', tag: 't', auth: 'public', response: z.object({ id: z.string() }) })
  fits() {
    return { id: 'x' };
  }

  // @ts-expect-error the answer lacks the schema's `id`
  @Route({
    method: 'get',
    path: 'b',
    summary: 'does not fit',
    tag: 't',
    auth: 'public',
    response: z.object({ id: z.string() }),
  })
  doesNotFit() {
    return { name: 'x' };
  }
}
