import { Body, Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { mapRequestSchema, type MapRequest } from '@quarry/contracts';
import { MapService } from '@quarry/crawl';
import type { AuthContext } from '@quarry/identity';
import { ZodValidationPipe } from '@quarry/platform/http';
import { Auth, CurrentAuth } from '../auth/auth.decorator';
import { defineOperations } from '../openapi/openapi.registry';

defineOperations({ method: 'post', path: '/v2/map', summary: 'URLs of a site (sitemaps, light crawl, index, web search)', tag: 'map', body: mapRequestSchema, statuses: [402, 408] });

@Controller('v2/map')
export class MapController {
  constructor(@Inject(MapService) private readonly maps: MapService) {}

  @Post()
  @HttpCode(200)
  @Auth({ scope: 'map', rateLimit: 'map' })
  map(@CurrentAuth() auth: AuthContext, @Body(new ZodValidationPipe(mapRequestSchema)) request: MapRequest) {
    return this.maps.map({ teamId: auth.teamId, apiKeyId: auth.apiKeyId, zeroDataRetention: auth.zeroDataRetention }, request);
  }
}
