import { Command, CommanderError } from 'commander';

import type { CreditsService } from '@quarry/billing';
import type { IdentityRepository, KeyManagementService } from '@quarry/identity';
import type { Database } from '@quarry/platform/database';
import { findMigrationsDir } from '@quarry/platform/database';

export interface AdminServices {
  database: Database;
  identity: IdentityRepository;
  keys: KeyManagementService;
  credits: CreditsService;
}

export interface CommandOutput {
  exitCode: number;
  stdout: string[];
  stderr: string[];
}

const integer = (name: string) => (value: string) => {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0)
    throw new CommanderError(2, 'quarry.invalidArgument', `${name} must be a non-negative integer`);
  return parsed;
};

/**
 * Administration commands (teams, keys, credits, migrations). The same runner serves the `quarry`
 * CLI process and the one-process server (which owns the embedded database while it runs).
 */
export async function runAdminCommand(
  argv: readonly string[],
  services: AdminServices,
): Promise<CommandOutput> {
  const output: CommandOutput = { exitCode: 0, stdout: [], stderr: [] };
  const out = (line: string) => output.stdout.push(line);
  const program = new Command('quarry')
    .description('Quarry administration')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => out(text.trimEnd()),
      writeErr: (text) => output.stderr.push(text.trimEnd()),
    });

  const teams = program.command('teams').description('manage teams');
  teams
    .command('create <name>')
    .option('--credits <n>', 'credits granted on creation', integer('--credits'))
    .option(
      '--rate-limit <n>',
      'requests per minute per endpoint class (0 = unlimited)',
      integer('--rate-limit'),
    )
    .option('--concurrency <n>', 'concurrent browser scrapes', integer('--concurrency'))
    .option('--zero-data-retention', 'enforce zero data retention for the team')
    .action(
      async (
        name: string,
        options: { credits?: number; rateLimit?: number; concurrency?: number; zeroDataRetention?: boolean },
      ) => {
        const team = await services.identity.ensureTeam(name);
        await services.identity.updateTeamSettings(team.id, {
          ...(options.rateLimit !== undefined ? { rateLimitPerMinute: options.rateLimit } : {}),
          ...(options.concurrency !== undefined ? { concurrencyLimit: options.concurrency } : {}),
          ...(options.zeroDataRetention ? { zeroDataRetention: true } : {}),
        });
        if (options.credits) await services.credits.grant(team.id, options.credits, 'granted by CLI');
        out(
          `team ${team.name} ${team.created ? 'created' : 'exists'} (${team.id}); balance ${await services.credits.balance(team.id)}`,
        );
      },
    );
  teams.command('list').action(async () => {
    for (const team of await services.identity.listTeams()) {
      out(
        `${team.id}\t${team.name}\tcredits=${team.credits}\trate=${team.rateLimitPerMinute ?? 'default'}\tconcurrency=${team.concurrencyLimit ?? 'default'}`,
      );
    }
  });

  const keys = program.command('keys').description('manage API keys');
  keys
    .command('create')
    .requiredOption('--team <name>', 'team owning the key (created when missing)')
    .option('--credits <n>', 'credits granted to the team', integer('--credits'))
    .option('--name <label>', 'a label for the key')
    .option('--scopes <list>', 'comma-separated permissions (default: all)')
    .action(async (options: { team: string; credits?: number; name?: string; scopes?: string }) => {
      const created = await services.keys.createKey(options.team, {
        name: options.name,
        scopes: options.scopes
          ?.split(',')
          .map((scope) => scope.trim())
          .filter(Boolean),
      });
      if (options.credits) await services.credits.grant(created.teamId, options.credits, 'granted by CLI');
      out(
        `team ${created.teamName} ${created.teamCreated ? 'created' : 'exists'}; balance ${await services.credits.balance(created.teamId)}`,
      );
      out(created.key);
    });
  keys
    .command('revoke <key>')
    .description('revoke by full key, key id or displayed prefix')
    .action(async (key: string) => {
      const count = await services.keys.revoke(key);
      if (count === 0) {
        output.stderr.push('no active key matched');
        output.exitCode = 1;
        return;
      }
      out(`revoked ${count} key(s)`);
    });
  keys
    .command('list')
    .option('--team <name>')
    .action(async (options: { team?: string }) => {
      for (const key of await services.identity.listKeys(options.team)) {
        out(
          `${key.id}\t${key.teamName}\t${key.prefix}…\t${key.revokedAt ? 'revoked' : 'active'}\t${key.scopes.join(',')}\t${key.name ?? ''}`,
        );
      }
    });

  const credits = program.command('credits').description('manage credit balances');
  credits
    .command('grant')
    .requiredOption('--team <name>')
    .argument('<amount>', 'credits to add (negative to remove)')
    .action(async (amount: string, options: { team: string }) => {
      const value = Number(amount);
      if (!Number.isInteger(value))
        throw new CommanderError(2, 'quarry.invalidArgument', 'amount must be an integer');
      const team = await services.identity.ensureTeam(options.team);
      await services.credits.grant(team.id, value, 'granted by CLI');
      out(`team ${team.name} balance ${await services.credits.balance(team.id)}`);
    });
  credits
    .command('balance')
    .requiredOption('--team <name>')
    .action(async (options: { team: string }) => {
      const team = await services.identity.findTeamByName(options.team);
      if (!team) {
        output.stderr.push(`no team named ${options.team}`);
        output.exitCode = 1;
        return;
      }
      out(String(team.credits));
    });

  program
    .command('migrate')
    .description('apply pending database migrations')
    .action(async () => {
      const result = await services.database.migrate(findMigrationsDir());
      out(`applied ${result.applied.length} migration(s), ${result.alreadyApplied} already applied`);
    });

  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.exitCode !== 0 && !output.stderr.length) output.stderr.push(error.message);
      output.exitCode = error.exitCode;
    } else {
      output.stderr.push(error instanceof Error ? error.message : String(error));
      output.exitCode = 1;
    }
  }
  return output;
}
