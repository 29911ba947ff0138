import { Controller, Get, Inject } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@quarry/platform/config';
import { Public } from '@quarry/platform/http';
import { buildOpenApiDocument, defineOperations } from '../openapi/openapi.registry';

defineOperations(
  { method: 'get', path: '/', summary: 'API identity', tag: 'meta', public: true },
  { method: 'get', path: '/v2/openapi.json', summary: 'This OpenAPI document', tag: 'meta', public: true },
);

/** `GET /`: a small identity of the API (compat §1.1), and the OpenAPI document. */
@Controller()
export class RootController {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  @Public()
  @Get()
  identity() {
    return {
      message: 'Quarry API',
      documentation_url: `${this.config.service.publicUrl}/v2/openapi.json`,
      version: 'v2',
    };
  }

  @Public()
  @Get('v2/openapi.json')
  openapi() {
    return buildOpenApiDocument(this.config.service.publicUrl);
  }
}
