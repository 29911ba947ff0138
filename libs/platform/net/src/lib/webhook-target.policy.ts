import { AppError } from '@quarry/contracts';

import type { GuardedHttpClient } from './guarded-http-client';
import { BlockedAddressError, DnsResolutionError } from './outbound-errors';

/** How long resolving a webhook's host may take when a job is created. */
const RESOLVE_TIMEOUT_MS = 5_000;

/**
 * Checks, when a job or monitor is created, that the platform will be allowed to call its webhook:
 * the host is resolved now and every address must pass the outbound policy, the same one the
 * delivery uses (which checks again, because DNS answers can change). A refused target is a 400
 * naming the rule, instead of a job that is accepted and then never delivers.
 */
export class WebhookTargetPolicy {
  constructor(
    private readonly client: Pick<GuardedHttpClient, 'assertAllowed' | 'policy'>,
    private readonly timeoutMs = RESOLVE_TIMEOUT_MS,
  ) {}

  /** Throws AppError BAD_REQUEST when the URL's host cannot be resolved or resolves to a refused address. */
  async assertAllowed(url: string, path: (string | number)[] = ['webhook', 'url']): Promise<void> {
    const host = new URL(url).hostname;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new DnsResolutionError(host)), this.timeoutMs);
    });
    try {
      await Promise.race([this.client.assertAllowed(url), timeout]);
    } catch (error) {
      if (error instanceof BlockedAddressError) {
        const where =
          error.address && error.address !== host.replace(/^\[|\]$/g, '')
            ? `${host} resolves to ${error.address}, `
            : `${host} is `;
        throw refusal(
          `Webhook URL refused: ${where}a private, loopback, link-local or metadata address. Webhooks may reach such addresses only when the deployment sets ALLOW_PRIVATE_NETWORKS=true or lists the address in OUTBOUND_ALLOWLIST`,
          path,
        );
      }
      if (error instanceof DnsResolutionError)
        throw refusal(`Webhook URL refused: the host name ${host} could not be resolved`, path);
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }
}

function refusal(message: string, path: (string | number)[]): AppError {
  return new AppError('BAD_REQUEST', { message, details: [{ code: 'custom', path, message }] });
}
