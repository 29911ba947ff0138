import { requestPublicUrl } from './public-url.util';

describe('requestPublicUrl', () => {
  const sut = requestPublicUrl;

  it('prefers PUBLIC_URL when configured', () => {
    expect(
      sut('https://api.example.com', { host: '127.0.0.1:3002', 'x-forwarded-host': 'proxy.example' }, 'http'),
    ).toBe('https://api.example.com');
  });

  it('takes the first X-Forwarded-Host and X-Forwarded-Proto of a reverse proxy', () => {
    expect(
      sut(
        undefined,
        {
          host: '10.0.0.5:3002',
          'x-forwarded-host': 'quarry.example.org, inner.proxy',
          'x-forwarded-proto': 'https,http',
        },
        'http',
      ),
    ).toBe('https://quarry.example.org');
  });

  it('falls back to the Host header over the connection protocol', () => {
    expect(sut(undefined, { host: '127.0.0.1:4100' }, 'http')).toBe('http://127.0.0.1:4100');
    expect(sut(undefined, { host: '[::1]:4100' }, 'https')).toBe('https://[::1]:4100');
  });

  it('ignores header values that are not host names and answers undefined without any', () => {
    expect(
      sut(undefined, { host: 'evil.example/path?x', 'x-forwarded-proto': 'javascript' }, 'http'),
    ).toBeUndefined();
    expect(sut(undefined, { 'x-forwarded-host': 'a b', host: 'ok.example' }, 'http')).toBe(
      'http://ok.example',
    );
    expect(sut(undefined, {}, 'http')).toBeUndefined();
  });
});
