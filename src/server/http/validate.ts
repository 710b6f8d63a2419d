import type { Context } from 'hono';
import type { z } from 'zod';
import { HttpError } from '../platform/errors.ts';

/** Parses the JSON body with a schema; malformed JSON and schema failures answer 400 with the issues. */
export async function jsonBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> {
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    throw new HttpError(400, 'VALIDATION_FAILED', 'server.invalidJson');
  }
  return schema.parse(body);
}

export function queryOf<S extends z.ZodType>(c: Context, schema: S): z.infer<S> {
  return schema.parse(c.req.query());
}
