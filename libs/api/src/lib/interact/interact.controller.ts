import { Body, Controller, Delete, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { interactRequestSchema, type InteractRequest } from '@quarry/contracts';
import type { AuthContext } from '@quarry/identity';
import { ZodValidationPipe } from '@quarry/platform/http';
import { Auth, CurrentAuth } from '../auth/auth.decorator';
import { defineOperations } from '../openapi/openapi.registry';
import { InteractService } from './interact.service';

defineOperations(
  {
    method: 'post',
    path: '/v2/scrape/{jobId}/interact',
    summary: 'Act on the page of a past scrape with Playwright-style code or a natural-language prompt',
    tag: 'scrape',
    body: interactRequestSchema,
    uuidParams: ['jobId'],
    statuses: [402, 408, 409, 422],
  },
  {
    method: 'delete',
    path: '/v2/scrape/{jobId}/interact',
    summary: 'Stop the interact session of a scrape',
    tag: 'scrape',
    uuidParams: ['jobId'],
  },
);

@Controller('v2/scrape')
export class InteractController {
  constructor(@Inject(InteractService) private readonly interactions: InteractService) {}

  @Post(':jobId/interact')
  @HttpCode(200)
  @Auth({ scope: 'scrape', rateLimit: 'scrape', uuidParams: ['jobId'] })
  interact(
    @CurrentAuth() auth: AuthContext,
    @Param('jobId') jobId: string,
    @Body(new ZodValidationPipe(interactRequestSchema)) request: InteractRequest,
  ) {
    return this.interactions.interact(auth, jobId, request);
  }

  @Delete(':jobId/interact')
  @Auth({ scope: 'scrape', rateLimit: 'status', uuidParams: ['jobId'] })
  stop(@CurrentAuth() auth: AuthContext, @Param('jobId') jobId: string) {
    return this.interactions.stop(auth, jobId);
  }
}
