import { applyDecorators, Delete, Get, HttpCode, Patch, Post, Put, SetMetadata } from '@nestjs/common';
import type { z } from 'zod';

import { AdminAuth } from '@quarry/admin';
import { Public } from '@quarry/platform/runtime';

import { Auth, type AuthRequirement } from '../auth/auth.decorator';

export const ROUTE_SPEC = 'quarry:route-spec';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** A field of a multipart/form-data body (uploads): a file part or a text part holding JSON. */
export interface MultipartField {
  name: string;
  description: string;
  file?: boolean;
  required?: boolean;
}

/**
 * Everything a route declares: how it is reached and authenticated, what it takes and what it
 * answers. The OpenAPI document is built from this metadata (openapi.util.ts), and the handler's
 * return type is checked against `response` at compile time.
 */
export interface RouteSpec<R extends z.ZodType = z.ZodType> {
  method: HttpMethod;
  /** Path below the controller's prefix, Nest syntax (`:jobId`); '' for the prefix itself. */
  path?: string;
  summary: string;
  /** OpenAPI tag (the product area). */
  tag: string;
  /**
   * Permission scope, rate-limit class and UUID path parameters; `public` for routes without an API
   * key; `operator` for the admin API (the deployment's ADMIN_API_KEY, never a team key).
   */
  auth: AuthRequirement | 'public' | 'operator';
  /** Query parameters (a zod object). */
  query?: z.ZodType;
  /** Contract of the JSON body. */
  body?: z.ZodType;
  /** Fields of a multipart/form-data body. */
  multipart?: MultipartField[];
  /** Contract of the success answer. */
  response: R;
  /** Status of the success answer (default 200). */
  status?: number;
  /** Error statuses specific to the route, besides those every route of its kind may answer. */
  statuses?: number[];
}

const METHODS = { get: Get, post: Post, put: Put, patch: Patch, delete: Delete } as const;

type Awaitable<T> = T | Promise<T>;

/** Declares a route: Nest method + status, @Auth, @Public or @AdminAuth, and the contract the OpenAPI document shows. */
export function Route<R extends z.ZodType>(spec: RouteSpec<R>) {
  const decorators = [
    METHODS[spec.method](spec.path ?? ''),
    HttpCode(spec.status ?? 200),
    spec.auth === 'public' ? Public() : spec.auth === 'operator' ? AdminAuth() : Auth(spec.auth),
    SetMetadata(ROUTE_SPEC, spec),
  ];
  // `void`: a handler that writes the reply itself (@Res), e.g. to answer 503 with its own headers.
  return <H extends (...args: never[]) => Awaitable<z.output<R> | void>>(
    target: object,
    key: string | symbol,
    descriptor: TypedPropertyDescriptor<H>,
  ): void => {
    applyDecorators(...decorators)(target, key, descriptor);
  };
}
