import type { z } from 'zod';
import { GatehouseError } from './errors';

/** One line per problem: `where.path.to.field: reason`. */
export function describeZodError(error: z.ZodError, where: string): string {
  return error.issues
    .map((issue) => {
      const path = issue.path.length ? `${where}.${issue.path.map(String).join('.')}` : where;
      return `${path}: ${issue.message}`;
    })
    .join('; ');
}

/** Validates a value at a boundary; a malformed value is rejected whole with a BAD_REQUEST error. */
export function parseAtBoundary<S extends z.ZodType>(schema: S, value: unknown, where: string): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new GatehouseError('BAD_REQUEST', describeZodError(result.error, where));
  return result.data;
}
