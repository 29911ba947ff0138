import { Controller, Get, Header, Inject, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';

import { HealthRegistry, PlatformMetrics } from '@quarry/platform/observability';

import { Public } from './public.decorator';

/** Kubernetes probes and Prometheus metrics, on every service. */
@Controller()
export class HealthController {
  constructor(
    @Inject(HealthRegistry) private readonly health: HealthRegistry,
    @Inject(PlatformMetrics) private readonly metrics: PlatformMetrics,
  ) {}

  @Public()
  @Get('livez')
  livez() {
    return { status: 'ok' };
  }

  @Public()
  @Get('readyz')
  async readyz(@Res() reply: FastifyReply) {
    const report = await this.health.report();
    if (report.ready) return reply.status(200).send({ status: 'ready', checks: report.checks });
    return reply.status(503).header('retry-after', '5').send({
      success: false,
      error: 'Service Unavailable',
      code: 'SERVICE_UNAVAILABLE',
      details: report.checks,
    });
  }

  @Public()
  @Get('metrics')
  @Header('content-type', 'text/plain; version=0.0.4; charset=utf-8')
  async prometheus() {
    return this.metrics.registry.metrics();
  }
}
