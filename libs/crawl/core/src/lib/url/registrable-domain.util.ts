import { isIP } from 'node:net';

/** Second-level labels under which registrations happen (a small, common subset of the public suffix list). */
const SECOND_LEVEL = new Set([
  'co',
  'com',
  'net',
  'org',
  'gov',
  'edu',
  'ac',
  'or',
  'ne',
  'go',
  'gob',
  'nic',
  'ltd',
  'plc',
]);

/**
 * The registrable domain of a host (`docs.example.co.uk` → `example.co.uk`), approximated without the
 * full public suffix list: two labels, three when the second-to-last is a common second-level label.
 * IP literals and single labels (`localhost`) are their own domain.
 */
export function registrableDomain(hostname: string): string {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (isIP(host.replace(/^\[|\]$/g, ''))) return host;
  const labels = host.split('.');
  if (labels.length <= 2) return labels.length === 2 && labels[1] === 'localhost' ? 'localhost' : host;
  if (labels[labels.length - 1] === 'localhost') return 'localhost';
  const take = SECOND_LEVEL.has(labels[labels.length - 2]) && labels[labels.length - 1].length === 2 ? 3 : 2;
  return labels.slice(-take).join('.');
}

/** True when `host` is `domain` or one of its subdomains. */
export function isWithinDomain(host: string, domain: string): boolean {
  const h = host.toLowerCase();
  return h === domain || h.endsWith(`.${domain}`);
}
