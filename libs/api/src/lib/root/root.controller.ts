import { Controller, Get, Inject } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@quarry/platform/config';
import { Public } from '@quarry/platform/http';

/** `GET /`: a small identity of the API (compat §1.1). */
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
}
