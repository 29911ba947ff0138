import 'reflect-metadata';

import type { Type } from '@nestjs/common';
import { METHOD_METADATA, MODULE_METADATA, PATH_METADATA } from '@nestjs/common/constants';

import { ADMIN_AUTH, AdminApiModule } from '@quarry/admin';
import { PUBLIC_ROUTE } from '@quarry/platform/runtime';

import { OperatorApiModule } from './admin/operator-api.module';
import { ApiModule } from './api.module';
import { AUTH_REQUIREMENT } from './auth/auth.decorator';
import { buildOpenApiDocument, documentedRoutes } from './openapi/openapi.util';
import { PARSE_UPLOAD_ROUTE } from './parse/parse-upload.route';

interface Route {
  controller: string;
  handler: string;
  path: string;
  auth: unknown;
  public: boolean;
  /** Admin API: the deployment's ADMIN_API_KEY instead of a team key. */
  admin: boolean;
}

/** Every route of a module tree with its auth declaration. */
function collectRoutes(module: Type<unknown>, seen = new Set<unknown>()): Route[] {
  if (seen.has(module)) return [];
  seen.add(module);
  const controllers: Type<unknown>[] = Reflect.getMetadata(MODULE_METADATA.CONTROLLERS, module) ?? [];
  const imports: unknown[] = Reflect.getMetadata(MODULE_METADATA.IMPORTS, module) ?? [];
  const routes: Route[] = [];
  for (const controller of controllers) {
    const base = String(Reflect.getMetadata(PATH_METADATA, controller) ?? '');
    for (const name of Object.getOwnPropertyNames(controller.prototype)) {
      const handler = controller.prototype[name];
      if (
        name === 'constructor' ||
        typeof handler !== 'function' ||
        Reflect.getMetadata(METHOD_METADATA, handler) === undefined
      )
        continue;
      routes.push({
        controller: controller.name,
        handler: name,
        path: `/${base}/${String(Reflect.getMetadata(PATH_METADATA, handler) ?? '')}`
          .replace(/\/+/g, '/')
          .replace(/(.)\/$/, '$1'),
        auth:
          Reflect.getMetadata(AUTH_REQUIREMENT, handler) ?? Reflect.getMetadata(AUTH_REQUIREMENT, controller),
        public: !!(
          Reflect.getMetadata(PUBLIC_ROUTE, handler) ?? Reflect.getMetadata(PUBLIC_ROUTE, controller)
        ),
        admin: !!(Reflect.getMetadata(ADMIN_AUTH, handler) ?? Reflect.getMetadata(ADMIN_AUTH, controller)),
      });
    }
  }
  for (const imported of imports) {
    if (typeof imported === 'function') routes.push(...collectRoutes(imported as Type<unknown>, seen));
    else if (imported && typeof imported === 'object' && 'module' in imported)
      routes.push(...collectRoutes((imported as { module: Type<unknown> }).module, seen));
  }
  return routes;
}

describe('route authentication declarations', () => {
  const routes = [
    ...collectRoutes(ApiModule),
    ...collectRoutes(AdminApiModule),
    ...collectRoutes(OperatorApiModule),
  ];

  it('finds the API routes', () => {
    expect(routes.map((route) => route.path)).toEqual(
      expect.arrayContaining(['/v2/scrape', '/v2/scrape/:jobId', '/']),
    );
  });

  it.each(routes.map((route) => [`${route.controller}.${route.handler} (${route.path})`, route] as const))(
    '%s declares exactly one of @Auth, @Public and @AdminAuth',
    (_name, route) => {
      expect([!!route.auth, route.public, route.admin].filter(Boolean)).toHaveLength(1);
    },
  );

  it('puts every admin API route under /admin/v1 behind @AdminAuth', () => {
    const admin = routes.filter((route) => route.path.startsWith('/admin/'));
    expect(admin.length).toBeGreaterThan(5);
    for (const route of admin) expect(route.admin).toBe(true);
  });

  it('checks UUID job ids wherever a route takes one', () => {
    for (const route of routes.filter((candidate) => /:jobId|:id\b/.test(candidate.path))) {
      expect(route.auth).toMatchObject({
        uuidParams: expect.arrayContaining([route.path.includes(':jobId') ? 'jobId' : 'id']),
      });
    }
  });

  it('documents every public and admin API route in the OpenAPI document', () => {
    const controllers = [ApiModule, OperatorApiModule].flatMap(
      (module) => (Reflect.getMetadata(MODULE_METADATA.CONTROLLERS, module) ?? []) as Type<unknown>[],
    );
    const documented = Object.keys(
      buildOpenApiDocument('http://test', [...documentedRoutes(controllers), PARSE_UPLOAD_ROUTE]).paths,
    );
    const undocumented = routes
      .filter((route) => route.path === '/' || /^\/(v2|admin\/v1)\//.test(route.path))
      .filter((route) => !route.path.startsWith('/v2/blobs'))
      .map((route) => route.path.replace(/:(\w+)/g, '{$1}'))
      .filter((path) => !documented.includes(path));
    expect(undocumented).toEqual([]);
  });
});
