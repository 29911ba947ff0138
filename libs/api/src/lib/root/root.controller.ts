import { Controller, Inject, type Type } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';

import { apiIdentityResponseSchema, openApiDocumentSchema } from '@quarry/contracts';
import { APP_CONFIG, type AppConfig } from '@quarry/platform/config';

import { buildOpenApiDocument, documentedRoutes } from '../openapi/openapi.util';
import { Route } from '../openapi/route.decorator';
import { PARSE_UPLOAD_ROUTE } from '../parse/parse-upload.route';

/** `GET /`: a small identity of the API (docs/compatibility.md#errors), and the OpenAPI document built from the @Route declarations. */
@Controller()
export class RootController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(DiscoveryService) private readonly discovery: DiscoveryService,
  ) {}

  @Route({
    method: 'get',
    summary: 'API identity',
    tag: 'meta',
    auth: 'public',
    response: apiIdentityResponseSchema,
  })
  identity() {
    return {
      message: 'Quarry API',
      documentation_url: `${this.config.service.publicUrl}/v2/openapi.json`,
      version: 'v2',
    };
  }

  @Route({
    method: 'get',
    path: 'v2/openapi.json',
    summary: 'This OpenAPI document',
    tag: 'meta',
    auth: 'public',
    response: openApiDocumentSchema,
  })
  openapi() {
    const controllers = this.discovery
      .getControllers()
      .map((wrapper) => wrapper.metatype)
      .filter((metatype): metatype is Type<unknown> => typeof metatype === 'function');
    return buildOpenApiDocument(this.config.service.publicUrl, [
      ...documentedRoutes(controllers),
      PARSE_UPLOAD_ROUTE,
    ]);
  }
}
