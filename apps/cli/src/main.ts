import { type CommandOutput, readStandaloneHandle, runAdminCommand } from '@quarry/admin';
import { CreditsService } from '@quarry/billing';
import { IdentityRepository, KeyManagementService } from '@quarry/identity';
import { createBus } from '@quarry/platform/bus';
import { type AppConfig, ConfigError, loadConfig } from '@quarry/platform/config';
import { Database, findMigrationsDir } from '@quarry/platform/database';
import { createLogger } from '@quarry/platform/observability';

/**
 * `topics ensure`: creates the deployment's Kafka topics (names from the contracts, BUS_TOPIC_PREFIX,
 * KAFKA_REPLICATION_FACTOR) and exits, for clusters where services may not create topics themselves
 * (the Helm chart's optional provisioning Job).
 */
async function ensureTopics(config: AppConfig, argv: string[]): Promise<number> {
  if (argv[1] !== 'ensure') {
    process.stderr.write('usage: topics ensure\n');
    return 2;
  }
  if (config.bus.driver !== 'kafka') {
    process.stderr.write('topics ensure needs KAFKA_BROKERS (or BUS_DRIVER=kafka)\n');
    return 2;
  }
  const bus = createBus(config.bus, createLogger({ service: 'cli', level: config.service.logLevel }));
  await bus.start();
  await bus.stop();
  process.stdout.write(
    `topics ready (prefix "${config.bus.topicPrefix}", replication ${config.bus.replicationFactor})\n`,
  );
  return 0;
}

/**
 * `npm run cli -- <command>`: administration against the configured database. When the one-process
 * server owns the embedded database, the command runs inside that server instead.
 */
async function run(argv: string[]): Promise<number> {
  const config = loadConfig(undefined, { serviceName: 'cli' });
  if (argv[0] === 'topics') return ensureTopics(config, argv);
  let output: CommandOutput;
  const handle = config.database.url ? undefined : readStandaloneHandle(config.dataDir);
  if (handle) {
    const response = await fetch(`${handle.url}/internal/admin/commands`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-admin-token': handle.token },
      body: JSON.stringify({ argv }),
    });
    if (!response.ok) throw new Error(`the running server refused the command (HTTP ${response.status})`);
    output = (await response.json()) as CommandOutput;
  } else {
    const database = await Database.open(config.database);
    try {
      if (argv[0] !== 'migrate') await database.migrate(findMigrationsDir());
      const identity = new IdentityRepository(database);
      output = await runAdminCommand(argv, {
        database,
        identity,
        keys: new KeyManagementService(identity),
        credits: new CreditsService(database),
      });
    } finally {
      await database.close();
    }
  }
  for (const line of output.stderr) process.stderr.write(`${line}\n`);
  for (const line of output.stdout) process.stdout.write(`${line}\n`);
  return output.exitCode;
}

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `${error instanceof ConfigError ? error.message : error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  },
);
