import type { ExecutionContext } from '@nestjs/common';

import { AppError } from '@quarry/contracts';
import { loadConfig } from '@quarry/platform/config';

import { AdminAuthGuard } from './admin-auth.guard';

const KEY = 'k'.repeat(48);
const contextWith = (authorization?: string) =>
  ({
    switchToHttp: () => ({ getRequest: () => ({ headers: authorization ? { authorization } : {} }) }),
  }) as unknown as ExecutionContext;
const codeOf = (run: () => unknown) => {
  try {
    run();
    return 'allowed';
  } catch (error) {
    return error instanceof AppError ? `${error.status} ${error.message}` : String(error);
  }
};

describe('AdminAuthGuard', () => {
  it('lets the ADMIN_API_KEY bearer through and nothing else', () => {
    const sut = new AdminAuthGuard(loadConfig({ ADMIN_API_KEY: KEY }));
    expect(codeOf(() => sut.canActivate(contextWith(`Bearer ${KEY}`)))).toBe('allowed');
    expect(codeOf(() => sut.canActivate(contextWith(`bearer ${KEY} `)))).toBe('allowed');
    for (const header of [
      undefined,
      KEY,
      `Bearer ${KEY}x`,
      `Bearer ${KEY.slice(1)}`,
      'Bearer fc-0123456789abcdef',
      'Basic abc',
    ]) {
      expect(codeOf(() => sut.canActivate(contextWith(header)))).toBe('401 Unauthorized: Invalid token');
    }
  });

  it('keeps the admin API off without ADMIN_API_KEY', () => {
    const sut = new AdminAuthGuard(loadConfig({}));
    expect(codeOf(() => sut.canActivate(contextWith(`Bearer ${KEY}`)))).toBe(
      '403 The admin API is disabled: set ADMIN_API_KEY to enable it',
    );
  });
});
