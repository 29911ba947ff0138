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
      this.record(tx, {
        teamId,
        amount,
        kind: amount >= 0 ? 'grant' : 'adjustment',
        description,
        idempotencyKey: idempotencyKey ?? null,
      }),
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
    await tx.team.update({ where: { id: entry.teamId }, data: { credits: { increment: entry.amount } } });
    return true;
  }
}
