import { Controller, Inject } from '@nestjs/common';

import { type MapRequest, mapRequestSchema, mapResponseSchema } from '@quarry/contracts';
import type { AuthContext } from '@quarry/identity';
import { MapService } from '@quarry/search';

import { CurrentAuth } from '../auth/auth.decorator';
import { Route } from '../openapi/route.decorator';
import { RouteBody } from '../openapi/route-input.decorator';

@Controller('v2/map')
export class MapController {
  constructor(@Inject(MapService) private readonly maps: MapService) {}

  @Route({
    method: 'post',
    summary: 'URLs of a site (sitemaps, light crawl, index, web search)',
    tag: 'map',
    body: mapRequestSchema,
    statuses: [402, 408],
    auth: { scope: 'map', rateLimit: 'map' },
    response: mapResponseSchema,
  })
  map(@CurrentAuth() auth: AuthContext, @RouteBody() request: MapRequest) {
    return this.maps.map(
      { teamId: auth.teamId, apiKeyId: auth.apiKeyId, zeroDataRetention: auth.zeroDataRetention },
      request,
    );
  }
}
