import { Body, Controller, Get, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { ExtractService } from '@quarry/agent/orchestrator';
import { extractRequestSchema, type ExtractRequest } from '@quarry/contracts';
import type { AuthContext } from '@quarry/identity';
import { ZodValidationPipe } from '@quarry/platform/http';
import { Auth, CurrentAuth } from '../auth/auth.decorator';
import { defineOperations } from '../openapi/openapi.registry';

defineOperations(
  {
    method: 'post',
    path: '/v2/extract',
    summary: "Start an extract job (deprecated; the SDK's extract/startExtract)",
    tag: 'extract',
    body: extractRequestSchema,
    statuses: [402, 422],
  },
  {
    method: 'get',
    path: '/v2/extract/{jobId}',
    summary: 'Status and result of an extract job',
    tag: 'extract',
    uuidParams: ['jobId'],
  },
);

/** Extract jobs (compat §12; deprecated). */
@Controller('v2/extract')
export class ExtractController {
  constructor(@Inject(ExtractService) private readonly extracts: ExtractService) {}

  @Post()
  @HttpCode(200)
  @Auth({ scope: 'extract', rateLimit: 'extract' })
  start(
    @CurrentAuth() auth: AuthContext,
    @Body(new ZodValidationPipe(extractRequestSchema)) request: ExtractRequest,
  ) {
    return this.extracts.start(auth, request);
  }

  @Get(':jobId')
  @Auth({ scope: 'extract', rateLimit: 'status', uuidParams: ['jobId'] })
  status(@CurrentAuth() auth: AuthContext, @Param('jobId') jobId: string) {
    return this.extracts.status(auth, jobId);
  }
}
