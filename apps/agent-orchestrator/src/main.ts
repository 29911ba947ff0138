import { main } from '@quarry/platform/runtime';

import { AgentOrchestratorAppModule } from './agent-orchestrator-app.module';

main({
  name: 'agent-orchestrator',
  migrates: false,
  module: (runtime) => AgentOrchestratorAppModule.forRoot(runtime),
});
