import type { PipeTransform } from '@nestjs/common';
import type { z } from 'zod';

import { AppError, describeValidationError } from '@quarry/contracts';

/** Validates a request body against a contract schema; failures become the spec's 400 with `details`. */
export class ZodValidationPipe<S extends z.ZodType> implements PipeTransform<unknown, z.output<S>> {
  constructor(private readonly schema: S) {}

  transform(value: unknown): z.output<S> {
    return parseOrThrow(this.schema, value ?? {});
  }
}

export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const failure = describeValidationError(result.error);
  throw new AppError(failure.isInvalidUrl ? 'INVALID_URL' : 'BAD_REQUEST', {
    message: failure.message,
    details: failure.details,
  });
}
