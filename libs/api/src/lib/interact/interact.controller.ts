import { Controller, Inject, Param } from '@nestjs/common';

import {
  type InteractRequest,
  interactRequestSchema,
  interactResponseSchema,
  interactStopResponseSchema,
} from '@quarry/contracts';
import type { AuthContext } from '@quarry/identity';

import { CurrentAuth } from '../auth/auth.decorator';
import { Route } from '../openapi/route.decorator';
import { RouteBody } from '../openapi/route-input.decorator';
import { InteractService } from './interact.service';

@Controller('v2/scrape')
export class InteractController {
  constructor(@Inject(InteractService) private readonly interactions: InteractService) {}

  @Route({
    method: 'post',
    path: ':jobId/interact',
    summary: 'Act on the page of a past scrape with Playwright-style code or a natural-language prompt',
    tag: 'scrape',
    body: interactRequestSchema,
    statuses: [402, 408, 409, 422],
    auth: { scope: 'scrape', rateLimit: 'scrape', uuidParams: ['jobId'] },
    response: interactResponseSchema,
  })
  interact(
    @CurrentAuth() auth: AuthContext,
    @Param('jobId') jobId: string,
    @RouteBody() request: InteractRequest,
  ) {
    return this.interactions.interact(auth, jobId, request);
  }

  @Route({
    method: 'delete',
    path: ':jobId/interact',
    summary: 'Stop the interact session of a scrape',
    tag: 'scrape',
    auth: { scope: 'scrape', rateLimit: 'status', uuidParams: ['jobId'] },
    response: interactStopResponseSchema,
  })
  stop(@CurrentAuth() auth: AuthContext, @Param('jobId') jobId: string) {
    return this.interactions.stop(auth, jobId);
  }
}
