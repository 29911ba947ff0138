import { AppError } from '@quarry/contracts';
import { Database, type Prisma } from '@quarry/platform/database';

export type LedgerKind = 'grant' | 'charge' | 'refund' | 'adjustment';

export interface ChargeInput {
  teamId: string;
  amount: number;
  /** Unique per charge: the same key never charges twice (redelivered jobs). */
  idempotencyKey: string;
  jobId?: string;
  apiKeyId?: string;
  description?: string;
}

type Tx = Prisma.TransactionClient;

/** The credit ledger: every change of a team's balance is a ledger row written in the same transaction. */
export class CreditsService {
  constructor(private readonly db: Database) {}

  /** The team's balance: the sum of its ledger (credits held for unfinished jobs included). */
  async balance(teamId: string): Promise<number> {
    return (await this.read(teamId)).credits;
  }

  /** What the team can spend now: its balance less the credits held for its unfinished jobs. */
  async available(teamId: string): Promise<number> {
    const { credits, reserved } = await this.read(teamId);
    return credits - reserved;
  }

  /** Throws 402 when the team has fewer than `needed` credits available (held credits are not). */
  async ensureAvailable(teamId: string, needed: number): Promise<number> {
    const available = await this.available(teamId);
    if (available < needed) throw new AppError('PAYMENT_REQUIRED');
    return available;
  }

  private async read(teamId: string): Promise<{ credits: number; reserved: number }> {
    // Typed raw SQL: read before many requests (the credit pre-check), where the ORM's per-statement work showed in the profile.
    const rows = await this.db.sql.query<{ credits: number; reserved_credits: number }>(
      'SELECT credits, reserved_credits FROM teams WHERE id = $1::uuid',
      [teamId],
    );
    return { credits: Number(rows[0]?.credits ?? 0), reserved: Number(rows[0]?.reserved_credits ?? 0) };
  }

  /** Charges inside the caller's transaction; returns false when this idempotency key was already charged. */
  async chargeIn(tx: Tx, input: ChargeInput): Promise<boolean> {
    return this.record(tx, { ...input, amount: -Math.abs(input.amount), kind: 'charge' });
  }

  async charge(input: ChargeInput): Promise<boolean> {
    return this.db.prisma.$transaction((tx) => this.chargeIn(tx, input));
  }

  async grant(
    teamId: string,
    amount: number,
    description = 'grant',
    idempotencyKey?: string,
  ): Promise<boolean> {
    return this.db.prisma.$transaction((tx) =>
      this.record(
        tx,
        {
          teamId,
          amount,
          kind: amount >= 0 ? 'grant' : 'adjustment',
          description,
          idempotencyKey: idempotencyKey ?? null,
        },
        applyBounded,
      ),
    );
  }

  async usage(teamId: string, since: Date, until: Date): Promise<number> {
    const result = await this.db.prisma.creditLedgerEntry.aggregate({
      where: { teamId, kind: 'charge', createdAt: { gte: since, lt: until } },
      _sum: { amount: true },
    });
    return -(result._sum.amount ?? 0);
  }

  private async record(
    tx: Tx,
    entry: {
      teamId: string;
      amount: number;
      kind: LedgerKind;
      idempotencyKey: string | null;
      jobId?: string;
      apiKeyId?: string;
      description?: string;
    },
    /** How the amount reaches the balance once its ledger row is written (grants: `applyBounded`). */
    apply: BalanceChange = incrementBalance,
  ): Promise<boolean> {
    if (entry.amount === 0) return true;
    const inserted = await tx.creditLedgerEntry.createMany({
      data: [
        {
          teamId: entry.teamId,
          amount: entry.amount,
          kind: entry.kind,
          idempotencyKey: entry.idempotencyKey,
          jobId: entry.jobId,
          apiKeyId: entry.apiKeyId,
          description: entry.description,
        },
      ],
      skipDuplicates: true,
    });
    if (inserted.count === 0) return false;
    await apply(tx, entry.teamId, entry.amount);
    return true;
  }
}

type BalanceChange = (tx: Tx, teamId: string, amount: number) => Promise<void>;

const incrementBalance: BalanceChange = async (tx, teamId, amount) => {
  await tx.team.update({ where: { id: teamId }, data: { credits: { increment: amount } } });
};

/** The largest balance a team can hold (the column is a 32-bit integer). */
export const MAX_TEAM_CREDITS = 2_147_483_647;

/**
 * Adds a grant or adjustment to the team's balance, in bounds: never above MAX_TEAM_CREDITS, and
 * never below the credits held for its unfinished jobs (those are charged out of the balance when
 * they finish, so a balance under them would end negative). Otherwise 409, and the caller's
 * transaction (with its ledger row) rolls back. The sum is taken in bigint, where it cannot overflow.
 */
const applyBounded: BalanceChange = async (tx, teamId, amount) => {
  const updated = await tx.$queryRaw<{ credits: number }[]>`
    UPDATE teams SET credits = credits + ${amount}::int
    WHERE id = ${teamId}::uuid AND credits::bigint + ${amount}::bigint BETWEEN reserved_credits AND ${MAX_TEAM_CREDITS}::bigint
    RETURNING credits`;
  if (updated.length > 0) return;
  const [team] = await tx.$queryRaw<{ credits: number; reserved_credits: number }[]>`
    SELECT credits, reserved_credits FROM teams WHERE id = ${teamId}::uuid`;
  if (!team) throw new AppError('NOT_FOUND', { message: 'Team not found.' });
  const credits = Number(team.credits);
  const held = Number(team.reserved_credits);
  throw new AppError('CONFLICT', {
    message:
      credits + amount > MAX_TEAM_CREDITS
        ? `The grant would take the team's balance above ${MAX_TEAM_CREDITS.toLocaleString('en-US')} credits (balance ${credits}, grant ${amount})`
        : `The adjustment would take the team's balance below the ${held} credits held for its unfinished jobs (balance ${credits}, adjustment ${amount})`,
  });
};
