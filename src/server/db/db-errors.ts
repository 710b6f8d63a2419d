/** A unique-constraint violation, on SQLite ("UNIQUE constraint failed") or PostgreSQL (23505). */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  if (e?.code === '23505') return true;
  return typeof e?.message === 'string' && /UNIQUE constraint failed/i.test(e.message);
}
