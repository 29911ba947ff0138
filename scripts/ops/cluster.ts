/**
 * `make cluster`: the platform as separate processes on this machine — 2 gateways behind a
 * round-robin proxy on :3100, 3 scrape workers, the agent orchestrator (:3121) and the doc-parser
 * (:3122), a 3-broker Kafka cluster and its own PostgreSQL cluster (quarry-faults on 25432).
 * Runs in the foreground; Ctrl-C stops the services (`make cluster-down` stops Kafka and PostgreSQL).
 *   SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register scripts/ops/cluster.ts [gateways=2] [workers=3]
 */
import { LocalCluster } from '../../apps/platform-e2e/src/support/local-cluster';

/** Defaults, overridden by the developer's environment for the listed variables (passed to every service). */
function passThrough(defaults: Record<string, string>, names: string[]): Record<string, string> {
  // eslint-disable-next-line no-restricted-syntax -- a developer script forwards selected variables of its shell to the services it starts
  const shell = process.env;
  return {
    ...defaults,
    ...Object.fromEntries(names.filter((name) => shell[name]).map((name) => [name, shell[name] as string])),
  };
}

async function main(): Promise<void> {
  const [gateways = '2', workers = '3'] = process.argv.slice(2);
  const log = (line: string) => process.stdout.write(`[cluster] ${line}\n`);
  const cluster = await LocalCluster.start({
    gateways: Number(gateways),
    workers: Number(workers),
    env: passThrough({ BOOTSTRAP_API_KEY: `fc-local-${Date.now().toString(36)}` }, [
      'BOOTSTRAP_API_KEY',
      'ALLOW_PRIVATE_NETWORKS',
      'OTEL_EXPORTER_OTLP_ENDPOINT',
      'LOG_LEVEL',
    ]),
    log,
  });
  for (const service of cluster.services)
    log(`${service.name.padEnd(20)} ${service.url} (pid ${service.process?.pid})`);
  log(`API:      ${cluster.url}`);
  log(`API key:  ${cluster.env['BOOTSTRAP_API_KEY']}`);
  log(`database: ${cluster.databaseUrl}`);
  log(`brokers:  ${cluster.brokers.join(',')}  (topic prefix ${cluster.env['BUS_TOPIC_PREFIX']})`);
  log(
    `try: curl -s -H "Authorization: Bearer ${cluster.env['BOOTSTRAP_API_KEY']}" -d '{"url":"https://example.com"}' ${cluster.url}/v2/scrape`,
  );
  log(
    `     curl -s -H "Authorization: Bearer ${cluster.env['BOOTSTRAP_API_KEY']}" -F file=@document.pdf ${cluster.url}/v2/parse`,
  );
  log('Ctrl-C stops the services');
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    log('stopping services');
    await cluster.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch((error: unknown) => {
  process.stderr.write(`cluster failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
