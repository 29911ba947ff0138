import { Controller, Inject, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';

import { healthStatusResponseSchema } from '@quarry/contracts';
import { HealthRegistry } from '@quarry/platform/observability';

import { Route } from '../openapi/route.decorator';

/**
 * The health paths of the reference self-hosted service (`/v0/health/liveness`, `/v0/health/readiness`),
 * which compose files and load balancers written for it probe: `{status: "ok"}`, or 503 in the error
 * shape while a dependency is not ready (the same checks as `/readyz`).
 */
@Controller('v0/health')
export class LegacyHealthController {
  constructor(@Inject(HealthRegistry) private readonly health: HealthRegistry) {}

  @Route({
    method: 'get',
    path: 'liveness',
    summary: 'Liveness, at the reference self-host path',
    tag: 'meta',
    auth: 'public',
    response: healthStatusResponseSchema,
  })
  liveness() {
    return { status: 'ok' as const };
  }

  @Route({
    method: 'get',
    path: 'readiness',
    summary: 'Readiness (as /readyz), at the reference self-host path',
    tag: 'meta',
    auth: 'public',
    response: healthStatusResponseSchema,
  })
  async readiness(@Res() reply: FastifyReply): Promise<void> {
    const report = await this.health.report();
    if (report.ready) {
      void reply.status(200).send({ status: 'ok' });
      return;
    }
    void reply.status(503).header('retry-after', '5').send({
      success: false,
      error: 'Service Unavailable',
      code: 'SERVICE_UNAVAILABLE',
      details: report.checks,
    });
  }
}
