import { Controller, Inject, Param } from '@nestjs/common';

import { ExtractService } from '@quarry/agent/extract';
import {
  type ExtractRequest,
  extractRequestSchema,
  extractStartResponseSchema,
  extractStatusResponseSchema,
} from '@quarry/contracts';
import type { AuthContext } from '@quarry/identity';

import { CurrentAuth } from '../auth/auth.decorator';
import { Route } from '../openapi/route.decorator';
import { RouteBody } from '../openapi/route-input.decorator';

/** Extract jobs (docs/extract.md; deprecated). */
@Controller('v2/extract')
export class ExtractController {
  constructor(@Inject(ExtractService) private readonly extracts: ExtractService) {}

  @Route({
    method: 'post',
    summary: "Start an extract job (deprecated; the SDK's extract/startExtract)",
    tag: 'extract',
    body: extractRequestSchema,
    statuses: [402, 422],
    auth: { scope: 'extract', rateLimit: 'extract' },
    response: extractStartResponseSchema,
  })
  start(@CurrentAuth() auth: AuthContext, @RouteBody() request: ExtractRequest) {
    return this.extracts.start(auth, request);
  }

  @Route({
    method: 'get',
    path: ':jobId',
    summary: 'Status and result of an extract job',
    tag: 'extract',
    auth: { scope: 'extract', rateLimit: 'status', uuidParams: ['jobId'] },
    response: extractStatusResponseSchema,
  })
  status(@CurrentAuth() auth: AuthContext, @Param('jobId') jobId: string) {
    return this.extracts.status(auth, jobId);
  }
}
