import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { z } from 'zod';

import { parseOrThrow } from '@quarry/platform/runtime';

import { ROUTE_SPEC, type RouteSpec } from './route.decorator';

function routeInput(part: 'body' | 'query', context: ExecutionContext): unknown {
  const spec = Reflect.getMetadata(ROUTE_SPEC, context.getHandler()) as RouteSpec | undefined;
  const schema: z.ZodType | undefined = spec?.[part];
  if (!schema) throw new Error(`@Route of ${context.getHandler().name} declares no ${part} schema`);
  const request = context.switchToHttp().getRequest<{ body?: unknown; query?: unknown }>();
  return parseOrThrow(schema, request[part] ?? {});
}

/**
 * The JSON body, parsed with the `body` schema its `@Route` declares (the one the OpenAPI document
 * shows): a body the contract refuses is the spec's 400 with `details`, as everywhere.
 */
export const RouteBody = createParamDecorator((_data: unknown, context: ExecutionContext) =>
  routeInput('body', context),
);

/** The query string, parsed with the `query` schema its `@Route` declares. */
export const RouteQuery = createParamDecorator((_data: unknown, context: ExecutionContext) =>
  routeInput('query', context),
);
