import { ApiClient, ApiError, localPath, sameOriginBlob } from './api.client';

describe('ApiClient', () => {
  const seen: { input: string; init?: RequestInit }[] = [];
  const answer = (status: number, body: unknown) => async (input: string, init?: RequestInit) => {
    seen.push({ input, init });
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  };

  it('sends the key as a bearer header to a path of this origin only', async () => {
    const sut = new ApiClient('fc-secret', answer(200, { success: true, data: 1 }));
    await expect(sut.post('/v2/scrape', { url: 'https://a.example' })).resolves.toEqual({
      success: true,
      data: 1,
    });
    const last = seen[seen.length - 1];
    expect(last.input).toBe('/v2/scrape');
    expect((last.init?.headers as Record<string, string>)['authorization']).toBe('Bearer fc-secret');
    expect(last.init?.credentials).toBe('omit');
    await expect(sut.get('https://evil.example/v2/team')).rejects.toThrow(/own origin/);
  });

  it('turns the spec error shape into an ApiError', async () => {
    const sut = new ApiClient(
      'k',
      answer(400, {
        success: false,
        error: 'Invalid URL',
        code: 'BAD_REQUEST',
        details: [{ path: ['url'] }],
      }),
    );
    const error = (await sut.get('/v2/x').catch((caught: unknown) => caught)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 400,
      message: 'Invalid URL',
      code: 'BAD_REQUEST',
      details: [{ path: ['url'] }],
    });
    // success:false with HTTP 200 (docs/compatibility.md#errors) is an error too
    await expect(
      new ApiClient('k', answer(200, { success: false, error: 'DNS' })).get('/v2/x'),
    ).rejects.toMatchObject({ status: 200, message: 'DNS' });
  });

  it('maps absolute next links and blob URLs to this origin', () => {
    expect(localPath('http://localhost:3002/v2/team/jobs?limit=2&cursor=1.a')).toBe(
      '/v2/team/jobs?limit=2&cursor=1.a',
    );
    expect(sameOriginBlob('http://localhost:3002/v2/blobs/shot.png?exp=1&sig=x')).toBe(
      '/v2/blobs/shot.png?exp=1&sig=x',
    );
    expect(sameOriginBlob('https://cdn.example/shot.png')).toBeUndefined();
  });
});
