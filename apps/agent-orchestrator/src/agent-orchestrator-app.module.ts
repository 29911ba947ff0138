import { type DynamicModule, Module } from '@nestjs/common';

import { AgentOrchestratorModule } from '@quarry/agent/worker';
import { MonitorRunnerModule } from '@quarry/monitor/runner';
import { HealthController, PlatformModule, type PlatformRuntime } from '@quarry/platform/runtime';
import { BillingModule, JobsModule } from '@quarry/wiring/core';

/**
 * The agent orchestrator: consumes `agent.work`, plans and records runs; schedules and runs monitor
 * checks (`monitor.checks`); serves only probes and metrics over HTTP.
 */
@Module({})
export class AgentOrchestratorAppModule {
  static forRoot(runtime: PlatformRuntime): DynamicModule {
    return {
      module: AgentOrchestratorAppModule,
      imports: [
        PlatformModule.forRoot(runtime),
        BillingModule,
        JobsModule,
        AgentOrchestratorModule,
        MonitorRunnerModule,
      ],
      controllers: [HealthController],
    };
  }
}
