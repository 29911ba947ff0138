import type {
  MonitorCheckStatus,
  MonitorNotificationStatus,
  MonitorPageStatus,
  MonitorTargetResult,
  WebhookDeliverySummary,
} from '@quarry/contracts';
import type { Database, SqlExecutor } from '@quarry/platform/database';
import type { WebhookOutboxRepository } from '@quarry/webhooks';

import type {
  CheckRecord,
  MonitorChanges,
  MonitorRecord,
  NewCheck,
  NewMonitor,
  PreviousPage,
  StoredPage,
} from '../monitor.types';
import type { CheckCompletion, DueDecision, DueMonitor } from './monitor-repository.types';
import { CHANGE_COLUMNS, insertCheckPages, JSON_CHANGES, MONITOR_COLUMNS } from './monitor-sql.util';
import { json, jsonb, num, type Raw, str, toCheck, toMonitor, toStoredPage } from './sql-rows';

export * from './monitor-repository.types';

/** Monitors, their checks and check pages in PostgreSQL (or PGlite). Tenancy: every read by id also names the team. */
export class MonitorRepository {
  constructor(
    private readonly db: Database,
    private readonly outbox: WebhookOutboxRepository,
  ) {}

  /** How the webhook events of a check fared (the check detail); undefined when it sent none. */
  webhookDelivery(checkId: string): Promise<WebhookDeliverySummary | undefined> {
    return this.outbox.deliverySummary(checkId);
  }

  // --- monitors ---------------------------------------------------------------------------------

  async create(monitor: NewMonitor): Promise<MonitorRecord> {
    const rows = await this.db.sql.query<Raw>(
      `INSERT INTO monitors AS m (id, team_id, api_key_id, name, status, cron, timezone, schedule_text, targets, webhook, notification, retention_days,
         goal, judge_enabled, robots_override, origin, next_run_at, estimated_credits_per_check, estimated_credits_per_month)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19) RETURNING ${MONITOR_COLUMNS}`,
      [
        monitor.id,
        monitor.teamId,
        monitor.apiKeyId,
        monitor.name,
        monitor.status,
        monitor.cron,
        monitor.timezone,
        monitor.scheduleText,
        jsonb(monitor.targets),
        jsonb(monitor.webhook),
        jsonb(monitor.notification),
        monitor.retentionDays,
        monitor.goal,
        monitor.judgeEnabled,
        monitor.robotsOverride,
        monitor.origin,
        monitor.nextRunAt,
        monitor.estimatedCreditsPerCheck,
        monitor.estimatedCreditsPerMonth,
      ],
    );
    return toMonitor(rows[0]);
  }

  async findForTeam(id: string, teamId: string): Promise<MonitorRecord | undefined> {
    const rows = await this.db.sql.query<Raw>(
      `SELECT ${MONITOR_COLUMNS} FROM monitors m WHERE m.id = $1 AND m.team_id = $2`,
      [id, teamId],
    );
    return rows[0] ? toMonitor(rows[0]) : undefined;
  }

  async find(id: string): Promise<MonitorRecord | undefined> {
    const rows = await this.db.sql.query<Raw>(`SELECT ${MONITOR_COLUMNS} FROM monitors m WHERE m.id = $1`, [
      id,
    ]);
    return rows[0] ? toMonitor(rows[0]) : undefined;
  }

  async list(teamId: string, limit: number, offset: number): Promise<MonitorRecord[]> {
    const rows = await this.db.sql.query<Raw>(
      `SELECT ${MONITOR_COLUMNS} FROM monitors m WHERE m.team_id = $1 ORDER BY m.created_at DESC, m.id LIMIT $2 OFFSET $3`,
      [teamId, limit, offset],
    );
    return rows.map(toMonitor);
  }

  async update(id: string, teamId: string, changes: MonitorChanges): Promise<MonitorRecord | undefined> {
    const sets: string[] = ['updated_at = now()'];
    const params: unknown[] = [id, teamId];
    for (const [key, value] of Object.entries(changes) as [keyof MonitorChanges, unknown][]) {
      if (value === undefined) continue;
      params.push(JSON_CHANGES.has(key) ? jsonb(value) : value);
      sets.push(`${CHANGE_COLUMNS[key]} = $${params.length}`);
    }
    const rows = await this.db.sql.query<Raw>(
      `UPDATE monitors AS m SET ${sets.join(', ')} WHERE m.id = $1 AND m.team_id = $2 RETURNING ${MONITOR_COLUMNS}`,
      params,
    );
    return rows[0] ? toMonitor(rows[0]) : undefined;
  }

  /** Deletes a monitor with its checks, pages and subscriptions (cascade). */
  async delete(id: string, teamId: string): Promise<boolean> {
    const rows = await this.db.sql.query(`DELETE FROM monitors WHERE id = $1 AND team_id = $2 RETURNING id`, [
      id,
      teamId,
    ]);
    return rows.length > 0;
  }

  // --- starting checks --------------------------------------------------------------------------

  /**
   * Claims due monitors: locks up to `limit` active monitors whose `next_run_at` has passed (rows
   * another scheduler holds are skipped), records the check `decide` plans for each and moves
   * `next_run_at` on, in one transaction. A slot is therefore run by one scheduler only, however
   * many replicas tick at once; the unique (monitor, scheduledFor) index backs that up.
   * Returns the checks to start (status `queued`).
   */
  async claimDue(limit: number, decide: (due: DueMonitor) => DueDecision): Promise<CheckRecord[]> {
    return this.db.sql.transaction(async (tx) => {
      const rows = await tx.query<Raw>(
        `SELECT ${MONITOR_COLUMNS}, t.credits AS team_credits, c.status AS current_status
         FROM monitors m JOIN teams t ON t.id = m.team_id LEFT JOIN monitor_checks c ON c.id = m.current_check_id
         WHERE m.status = 'active' AND m.next_run_at IS NOT NULL AND m.next_run_at <= now()
         ORDER BY m.next_run_at LIMIT $1 FOR UPDATE OF m SKIP LOCKED`,
        [limit],
      );
      const started: CheckRecord[] = [];
      for (const row of rows) {
        const monitor = toMonitor(row);
        const decision = decide({
          monitor,
          teamCredits: num(row['team_credits']),
          checkInProgress: isActiveStatus(row['current_status']),
        });
        const check = await this.insertCheck(tx, decision.check, true);
        const becomesCurrent = check?.status === 'queued';
        await tx.query(
          `UPDATE monitors SET next_run_at = $2, current_check_id = CASE WHEN $3::boolean THEN $4::uuid ELSE current_check_id END, updated_at = now() WHERE id = $1`,
          [monitor.id, decision.nextRunAt, becomesCurrent, check?.id ?? null],
        );
        if (check && becomesCurrent) started.push(check);
      }
      return started;
    });
  }

  /**
   * A manual run: `decide` sees the locked monitor, whether a check is in progress and the team's
   * balance, and answers the check to record (made current when queued) or why none can start.
   */
  async startManual<R extends string>(
    monitorId: string,
    teamId: string,
    decide: (due: DueMonitor) => NewCheck | R,
  ): Promise<{ check: CheckRecord } | { refused: R } | undefined> {
    return this.db.sql.transaction(async (tx) => {
      const rows = await tx.query<Raw>(
        `SELECT ${MONITOR_COLUMNS}, t.credits AS team_credits, c.status AS current_status
         FROM monitors m JOIN teams t ON t.id = m.team_id LEFT JOIN monitor_checks c ON c.id = m.current_check_id
         WHERE m.id = $1 AND m.team_id = $2 FOR UPDATE OF m`,
        [monitorId, teamId],
      );
      if (!rows[0]) return undefined;
      const decision = decide({
        monitor: toMonitor(rows[0]),
        teamCredits: num(rows[0]['team_credits']),
        checkInProgress: isActiveStatus(rows[0]['current_status']),
      });
      if (typeof decision === 'string') return { refused: decision };
      const check = (await this.insertCheck(tx, decision, false)) as CheckRecord;
      if (check.status === 'queued')
        await tx.query(`UPDATE monitors SET current_check_id = $2, updated_at = now() WHERE id = $1`, [
          monitorId,
          check.id,
        ]);
      return { check };
    });
  }

  private async insertCheck(
    tx: SqlExecutor,
    check: NewCheck,
    skipDuplicateSlot: boolean,
  ): Promise<CheckRecord | undefined> {
    const rows = await tx.query<Raw>(
      `INSERT INTO monitor_checks (id, monitor_id, team_id, status, trigger, scheduled_for, estimated_credits, billing_status, summary, target_results, error, finished_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
       ${skipDuplicateSlot ? 'ON CONFLICT (monitor_id, scheduled_for) DO NOTHING' : ''} RETURNING *`,
      [
        check.id,
        check.monitorId,
        check.teamId,
        check.status,
        check.trigger,
        check.scheduledFor,
        check.estimatedCredits,
        check.billingStatus,
        jsonb(check.summary),
        jsonb(check.targetResults),
        check.error,
        check.finishedAt ?? null,
      ],
    );
    return rows[0] ? toCheck(rows[0]) : undefined;
  }

  // --- running checks ---------------------------------------------------------------------------

  /** Takes the check's lease (a redelivered message or a second orchestrator then leaves it alone). */
  /**
   * Takes the check's lease (a live lease of another runner wins) and counts the attempt: a runner
   * taking over from one that died, or from itself after its lease lapsed, is one more attempt.
   */
  async claimCheck(checkId: string, owner: string, leaseMs: number): Promise<CheckRecord | undefined> {
    const rows = await this.db.sql.query<Raw>(
      `UPDATE monitor_checks SET lease_owner = $2, lease_until = now() + ($3::text || ' milliseconds')::interval, updated_at = now(),
         attempts = attempts + CASE WHEN lease_owner = $2 AND lease_until >= now() THEN 0 ELSE 1 END
       WHERE id = $1 AND status IN ('queued', 'running') AND (lease_until IS NULL OR lease_until < now() OR lease_owner = $2) RETURNING *`,
      [checkId, owner, String(leaseMs)],
    );
    return rows[0] ? toCheck(rows[0]) : undefined;
  }

  async renewLease(checkId: string, owner: string, leaseMs: number): Promise<boolean> {
    const rows = await this.db.sql.query(
      `UPDATE monitor_checks SET lease_until = now() + ($3::text || ' milliseconds')::interval, updated_at = now()
       WHERE id = $1 AND lease_owner = $2 AND status IN ('queued', 'running') RETURNING id`,
      [checkId, owner, String(leaseMs)],
    );
    return rows.length > 0;
  }

  async releaseLease(checkId: string, owner: string): Promise<void> {
    await this.db.sql.query(
      `UPDATE monitor_checks SET lease_owner = NULL, lease_until = NULL WHERE id = $1 AND lease_owner = $2`,
      [checkId, owner],
    );
  }

  async markRunning(checkId: string, owner: string, reservedCredits: number): Promise<boolean> {
    const rows = await this.db.sql.query(
      `UPDATE monitor_checks SET status = 'running', started_at = COALESCE(started_at, now()), reserved_credits = $3, billing_status = 'reserved', updated_at = now()
       WHERE id = $1 AND lease_owner = $2 AND status IN ('queued', 'running') RETURNING id`,
      [checkId, owner, reservedCredits],
    );
    return rows.length > 0;
  }

  async saveTargetResults(checkId: string, owner: string, results: MonitorTargetResult[]): Promise<boolean> {
    const rows = await this.db.sql.query(
      `UPDATE monitor_checks SET target_results = $3, updated_at = now() WHERE id = $1 AND lease_owner = $2 AND status = 'running' RETURNING id`,
      [checkId, owner, jsonb(results)],
    );
    return rows.length > 0;
  }

  /**
   * Finishes a running check in one transaction: its pages, summary and credits, the monitor's last
   * run and summary, and the webhook events in the outbox. Only the lease holder can finish it, once.
   */
  async finish(completion: CheckCompletion): Promise<boolean> {
    return this.db.sql.transaction(async (tx) => {
      const rows = await tx.query<Raw>(
        `UPDATE monitor_checks SET status = $3, summary = $4, target_results = $5, actual_credits = $6, billing_status = $7, notification_status = $8,
           error = $9, finished_at = now(), lease_owner = NULL, lease_until = NULL, updated_at = now()
         WHERE id = $1 AND lease_owner = $2 AND status = 'running' RETURNING monitor_id, team_id`,
        [
          completion.checkId,
          completion.owner,
          completion.status,
          jsonb(completion.summary),
          jsonb(completion.targetResults),
          completion.actualCredits,
          completion.billingStatus,
          jsonb(completion.notificationStatus),
          completion.error,
        ],
      );
      if (!rows[0]) return false;
      const monitorId = String(rows[0]['monitor_id']);
      const teamId = String(rows[0]['team_id']);
      await insertCheckPages(tx, completion.checkId, monitorId, completion.pages);
      await tx.query(
        `UPDATE monitors SET last_run_at = now(), last_check_summary = $3, current_check_id = CASE WHEN current_check_id = $2 THEN NULL ELSE current_check_id END, updated_at = now()
         WHERE id = $1`,
        [monitorId, completion.checkId, jsonb(completion.summary)],
      );
      if (completion.webhook && completion.events.length > 0) {
        const { url, headers, metadata } = completion.webhook;
        await this.outbox.openStreamIn(tx, completion.checkId, { url, headers, metadata, events: [] });
        for (const event of completion.events)
          await this.outbox.enqueueIn(tx, {
            jobId: completion.checkId,
            teamId,
            type: event.type,
            payload: event.payload,
          });
      }
      return true;
    });
  }

  async updateNotificationStatus(checkId: string, status: MonitorNotificationStatus): Promise<void> {
    await this.db.sql.query(
      `UPDATE monitor_checks SET notification_status = $2, updated_at = now() WHERE id = $1`,
      [checkId, jsonb(status)],
    );
  }

  /** Queued or running checks nobody holds (their process died, or their message was lost). */
  async staleChecks(
    olderThanMs: number,
    limit = 50,
  ): Promise<{ id: string; monitorId: string; teamId: string }[]> {
    const rows = await this.db.sql.query<Raw>(
      `UPDATE monitor_checks SET updated_at = now() WHERE id IN (
         SELECT id FROM monitor_checks WHERE status IN ('queued', 'running') AND (lease_until IS NULL OR lease_until < now())
           AND updated_at < now() - ($1::text || ' milliseconds')::interval
         ORDER BY updated_at LIMIT $2 FOR UPDATE SKIP LOCKED)
       RETURNING id, monitor_id, team_id`,
      [String(olderThanMs), limit],
    );
    return rows.map((row) => ({
      id: String(row['id']),
      monitorId: String(row['monitor_id']),
      teamId: String(row['team_id']),
    }));
  }

  // --- reading checks ---------------------------------------------------------------------------

  async findCheck(checkId: string): Promise<CheckRecord | undefined> {
    const rows = await this.db.sql.query<Raw>(`SELECT * FROM monitor_checks WHERE id = $1`, [checkId]);
    return rows[0] ? toCheck(rows[0]) : undefined;
  }

  async findCheckForTeam(
    monitorId: string,
    checkId: string,
    teamId: string,
  ): Promise<CheckRecord | undefined> {
    const rows = await this.db.sql.query<Raw>(
      `SELECT * FROM monitor_checks WHERE id = $1 AND monitor_id = $2 AND team_id = $3`,
      [checkId, monitorId, teamId],
    );
    return rows[0] ? toCheck(rows[0]) : undefined;
  }

  async listChecks(
    monitorId: string,
    teamId: string,
    limit: number,
    offset: number,
    status?: MonitorCheckStatus,
  ): Promise<CheckRecord[]> {
    const rows = await this.db.sql.query<Raw>(
      `SELECT * FROM monitor_checks WHERE monitor_id = $1 AND team_id = $2 AND ($5::text IS NULL OR status = $5)
       ORDER BY created_at DESC, id LIMIT $3 OFFSET $4`,
      [monitorId, teamId, limit, offset, status ?? null],
    );
    return rows.map(toCheck);
  }

  async checkPages(
    checkId: string,
    skip: number,
    limit: number,
    status?: MonitorPageStatus,
  ): Promise<{ pages: StoredPage[]; total: number }> {
    const rows = await this.db.sql.query<Raw>(
      `SELECT * FROM monitor_check_pages WHERE check_id = $1 AND ($4::text IS NULL OR status = $4) ORDER BY seq OFFSET $2 LIMIT $3`,
      [checkId, skip, limit, status ?? null],
    );
    const count = await this.db.sql.query<Raw>(
      `SELECT count(*) AS n FROM monitor_check_pages WHERE check_id = $1 AND ($2::text IS NULL OR status = $2)`,
      [checkId, status ?? null],
    );
    return { pages: rows.map(toStoredPage), total: num(count[0]?.['n']) };
  }

  /** The latest usable sighting (not an error) of every URL of a target by earlier checks. */
  async previousPages(
    monitorId: string,
    targetId: string,
    beforeCheckId: string,
  ): Promise<Map<string, PreviousPage>> {
    const rows = await this.db.sql.query<Raw>(
      `SELECT DISTINCT ON (url_key) url_key, url, status, current_scrape_id, snapshot FROM monitor_check_pages
       WHERE monitor_id = $1 AND target_id = $2 AND check_id <> $3 AND status <> 'error'
       ORDER BY url_key, created_at DESC, seq DESC`,
      [monitorId, targetId, beforeCheckId],
    );
    return new Map(
      rows.map((row) => [
        String(row['url_key']),
        {
          urlKey: String(row['url_key']),
          url: String(row['url']),
          status: row['status'] as MonitorPageStatus,
          currentScrapeId: str(row['current_scrape_id']),
          snapshot: row['snapshot'] ? json(row['snapshot']) : null,
        },
      ]),
    );
  }

  // --- billing and housekeeping -----------------------------------------------------------------

  /** Credits charged (ledger) to the given jobs: what a check's crawls, batches and searches cost. */
  async creditsCharged(jobIds: string[]): Promise<number> {
    if (jobIds.length === 0) return 0;
    const rows = await this.db.sql.query<Raw>(
      `SELECT COALESCE(-sum(amount), 0) AS credits FROM credit_ledger WHERE job_id = ANY($1::uuid[]) AND kind = 'charge'`,
      [jobIds],
    );
    return num(rows[0]?.['credits']);
  }

  /** The job a team created with this idempotency key (a collection started before a crash). */
  async jobByIdempotencyKey(teamId: string, key: string): Promise<string | undefined> {
    const rows = await this.db.sql.query<Raw>(
      `SELECT id FROM jobs WHERE team_id = $1 AND idempotency_key = $2`,
      [teamId, key],
    );
    return rows[0] ? String(rows[0]['id']) : undefined;
  }

  async teamConcurrency(teamId: string): Promise<number | undefined> {
    const rows = await this.db.sql.query<Raw>(`SELECT concurrency_limit FROM teams WHERE id = $1`, [teamId]);
    return rows[0]?.['concurrency_limit'] === null || rows[0] === undefined
      ? undefined
      : num(rows[0]['concurrency_limit']);
  }

  /** Deletes finished checks older than their monitor's `retentionDays` (pages go with them). */
  async pruneChecks(): Promise<number> {
    const rows = await this.db.sql.query(
      `DELETE FROM monitor_checks c USING monitors m
       WHERE c.monitor_id = m.id AND c.status NOT IN ('queued', 'running') AND c.created_at < now() - make_interval(days => m.retention_days)
       RETURNING c.id`,
    );
    return rows.length;
  }
}

function isActiveStatus(status: unknown): boolean {
  return status === 'queued' || status === 'running';
}
