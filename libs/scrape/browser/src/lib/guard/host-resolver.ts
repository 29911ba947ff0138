import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';

import type { AddressPolicy } from '@quarry/platform/net';

export type HostLookup = (hostname: string) => Promise<LookupAddress[]>;

export const systemLookup: HostLookup = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))),
  );

export type Resolution =
  { ok: true; address: string; family: number } | { ok: false; reason: 'blocked' | 'dns'; address?: string };

/**
 * Resolves a host once and decides with the address policy: refused when any answer is private
 * (the connection then goes to the checked address, so a rebinding DNS answer cannot slip in
 * between check and connect). Answers are memoised for the life of one browser session.
 */
export class HostResolver {
  private readonly cache = new Map<string, Promise<Resolution>>();

  constructor(
    private readonly policy: AddressPolicy,
    private readonly lookup: HostLookup = systemLookup,
  ) {}

  resolve(rawHost: string): Promise<Resolution> {
    const host = rawHost.replace(/^\[|\]$/g, '').toLowerCase();
    let pending = this.cache.get(host);
    if (!pending) {
      pending = this.decide(host);
      this.cache.set(host, pending);
    }
    return pending;
  }

  private async decide(host: string): Promise<Resolution> {
    const family = isIP(host);
    if (family)
      return this.policy.allows(host)
        ? { ok: true, address: host, family }
        : { ok: false, reason: 'blocked', address: host };
    let answers: LookupAddress[];
    try {
      answers = await this.lookup(host);
    } catch {
      return { ok: false, reason: 'dns' };
    }
    if (answers.length === 0) return { ok: false, reason: 'dns' };
    const refused = answers.find((answer) => !this.policy.allows(answer.address));
    if (refused) return { ok: false, reason: 'blocked', address: refused.address };
    return { ok: true, address: answers[0].address, family: answers[0].family };
  }
}
