import { createHash, randomBytes, randomUUID } from 'node:crypto';

import type { MonitorEmailRecipientSubscription } from '@quarry/contracts';
import type { Database } from '@quarry/platform/database';

import { date, type Raw, str } from './sql-rows';

export type TokenPurpose = 'confirm' | 'unsubscribe';

export interface SubscriptionRecord {
  id: string;
  monitorId: string;
  teamId: string;
  email: string;
  status: MonitorEmailRecipientSubscription['status'];
  source: MonitorEmailRecipientSubscription['source'];
  confirmationEmailSent: boolean;
  confirmedAt: Date | null;
  unsubscribedAt: Date | null;
}

const TOKEN_TTL_MS: Record<TokenPurpose, number> = {
  confirm: 7 * 24 * 3_600_000,
  unsubscribe: 365 * 24 * 3_600_000,
};

export const hashToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

function toSubscription(row: Raw): SubscriptionRecord {
  return {
    id: String(row['id']),
    monitorId: String(row['monitor_id']),
    teamId: String(row['team_id']),
    email: String(row['email']),
    status: row['status'] as SubscriptionRecord['status'],
    source: row['source'] as SubscriptionRecord['source'],
    confirmationEmailSent: Boolean(row['confirmation_email_sent']),
    confirmedAt: date(row['confirmed_at']),
    unsubscribedAt: date(row['unsubscribed_at']),
  };
}

/**
 * Opt-in state of monitor email recipients and their tokens. Every recipient starts `pending` and
 * receives mail only once confirmed; tokens are random, handed out once in an email, and stored
 * only as their SHA-256.
 */
export class EmailSubscriptionRepository {
  constructor(private readonly db: Database) {}

  /**
   * Makes the monitor's subscriptions match `emails`: addresses no longer listed are dropped, new
   * ones start `pending`. Returns the new ones (they need a confirmation email).
   */
  async reconcile(monitorId: string, teamId: string, emails: string[]): Promise<SubscriptionRecord[]> {
    const wanted = [...new Set(emails.map((email) => email.trim().toLowerCase()))];
    return this.db.sql.transaction(async (tx) => {
      await tx.query(
        `DELETE FROM monitor_email_subscriptions WHERE monitor_id = $1 AND NOT (email = ANY($2::text[]))`,
        [monitorId, wanted],
      );
      const added: SubscriptionRecord[] = [];
      for (const email of wanted) {
        const rows = await tx.query<Raw>(
          `INSERT INTO monitor_email_subscriptions (id, monitor_id, team_id, email, status, source) VALUES ($1, $2, $3, $4, 'pending', 'opt_in')
           ON CONFLICT (monitor_id, email) DO NOTHING RETURNING *`,
          [randomUUID(), monitorId, teamId, email],
        );
        if (rows[0]) added.push(toSubscription(rows[0]));
      }
      return added;
    });
  }

  async list(monitorId: string): Promise<SubscriptionRecord[]> {
    const rows = await this.db.sql.query<Raw>(
      `SELECT * FROM monitor_email_subscriptions WHERE monitor_id = $1 ORDER BY created_at, email`,
      [monitorId],
    );
    return rows.map(toSubscription);
  }

  async confirmed(monitorId: string): Promise<SubscriptionRecord[]> {
    return (await this.list(monitorId)).filter((subscription) => subscription.status === 'confirmed');
  }

  async markConfirmationSent(id: string): Promise<void> {
    await this.db.sql.query(
      `UPDATE monitor_email_subscriptions SET confirmation_email_sent = true, updated_at = now() WHERE id = $1`,
      [id],
    );
  }

  /** A new token for the subscription; only its hash is stored. */
  async issueToken(subscriptionId: string, purpose: TokenPurpose): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await this.db.sql.query(
      `INSERT INTO monitor_email_tokens (token_hash, subscription_id, purpose, expires_at) VALUES ($1, $2, $3, $4)`,
      [hashToken(token), subscriptionId, purpose, new Date(Date.now() + TOKEN_TTL_MS[purpose])],
    );
    return token;
  }

  /**
   * Applies a token: `confirm` makes the recipient confirmed (also after an unsubscribe: that is the
   * new confirmation flow), `unsubscribe` opts it out. Unknown, expired or other-purpose tokens → undefined.
   */
  async redeem(token: string, purpose: TokenPurpose): Promise<SubscriptionRecord | undefined> {
    return this.db.sql.transaction(async (tx) => {
      const rows = await tx.query<Raw>(
        `UPDATE monitor_email_tokens SET used_at = COALESCE(used_at, now()) WHERE token_hash = $1 AND purpose = $2 AND expires_at > now() RETURNING subscription_id`,
        [hashToken(token), purpose],
      );
      const subscriptionId = str(rows[0]?.['subscription_id']);
      if (!subscriptionId) return undefined;
      const updated = await tx.query<Raw>(
        purpose === 'confirm'
          ? `UPDATE monitor_email_subscriptions SET status = 'confirmed', confirmed_at = now(), unsubscribed_at = NULL, updated_at = now() WHERE id = $1 RETURNING *`
          : `UPDATE monitor_email_subscriptions SET status = 'unsubscribed', unsubscribed_at = now(), updated_at = now() WHERE id = $1 RETURNING *`,
        [subscriptionId],
      );
      return updated[0] ? toSubscription(updated[0]) : undefined;
    });
  }

  async pruneTokens(): Promise<number> {
    const rows = await this.db.sql.query(
      `DELETE FROM monitor_email_tokens WHERE expires_at < now() RETURNING token_hash`,
    );
    return rows.length;
  }
}
