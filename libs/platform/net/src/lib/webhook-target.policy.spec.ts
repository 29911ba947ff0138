import { AddressPolicy } from './address-policy';
import { GuardedHttpClient, type HostLookup } from './guarded-http-client';
import { WebhookTargetPolicy } from './webhook-target.policy';

describe('WebhookTargetPolicy', () => {
  const lookup: HostLookup = async (host) => {
    if (host === 'hooks.public.test') return [{ address: '93.184.216.34', family: 4 }];
    if (host === 'hooks.internal.test') return [{ address: '10.1.2.3', family: 4 }];
    if (host === 'hooks.mixed.test')
      return [
        { address: '93.184.216.34', family: 4 },
        { address: 'fd00::5', family: 6 },
      ];
    if (host === 'hooks.slow.test') return new Promise(() => undefined);
    throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
  };
  const sut = (policy: AddressPolicy, timeoutMs = 5_000) =>
    new WebhookTargetPolicy(
      new GuardedHttpClient(policy, { userAgent: 'test', maxBytes: 1_000 }, lookup),
      timeoutMs,
    );
  const refused = (promise: Promise<void>, message: RegExp) =>
    expect(promise).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      status: 400,
      message: expect.stringMatching(message),
      details: [expect.objectContaining({ path: ['webhook', 'url'] })],
    });

  it('accepts a public target, by address or by name', async () => {
    await expect(
      sut(new AddressPolicy(false)).assertAllowed('https://93.184.216.34/hook'),
    ).resolves.toBeUndefined();
    await expect(
      sut(new AddressPolicy(false)).assertAllowed('https://hooks.public.test/hook'),
    ).resolves.toBeUndefined();
  });

  it('refuses private literals in every spelling, naming the rule', async () => {
    for (const url of [
      'http://127.0.0.1:8080/h',
      'http://10.0.0.1/h',
      'http://[::1]/h',
      'http://[::127.0.0.1]/h',
      'http://169.254.169.254/latest',
    ])
      await refused(
        sut(new AddressPolicy(false)).assertAllowed(url),
        /private, loopback, link-local or metadata address.*ALLOW_PRIVATE_NETWORKS=true.*OUTBOUND_ALLOWLIST/,
      );
  });

  it('refuses a name resolving to a private address, any of its answers', async () => {
    await refused(
      sut(new AddressPolicy(false)).assertAllowed('https://hooks.internal.test/h'),
      /hooks\.internal\.test resolves to 10\.1\.2\.3/,
    );
    await refused(
      sut(new AddressPolicy(false)).assertAllowed('https://hooks.mixed.test/h'),
      /resolves to fd00::5/,
    );
  });

  it('refuses names that do not resolve, also when resolving hangs', async () => {
    await refused(
      sut(new AddressPolicy(true)).assertAllowed('https://nowhere.test/h'),
      /nowhere\.test could not be resolved/,
    );
    await refused(
      sut(new AddressPolicy(false), 100).assertAllowed('https://hooks.slow.test/h'),
      /could not be resolved/,
    );
  });

  it('accepts private targets when the deployment allows them, or the allowlist lists them', async () => {
    await expect(sut(new AddressPolicy(true)).assertAllowed('http://127.0.0.1:9/h')).resolves.toBeUndefined();
    await expect(
      sut(new AddressPolicy(false, ['10.1.2.3'])).assertAllowed('https://hooks.internal.test/h'),
    ).resolves.toBeUndefined();
  });

  it('reports the field it was given', async () => {
    await expect(
      sut(new AddressPolicy(false)).assertAllowed('http://127.0.0.1/h', ['webhook']),
    ).rejects.toMatchObject({ details: [expect.objectContaining({ path: ['webhook'] })] });
  });
});
