import { hash, verify } from '@node-rs/argon2';

/** argon2id with the security baseline's parameters (m = 19 MiB, t = 2, p = 1). */
const OPTIONS = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummy: Promise<string> | null = null;
/**
 * Verifies against a throw-away hash, so a login for an unknown account costs as much time as one for
 * a known account with a wrong password (no account discovery by timing).
 */
export async function burnPasswordCheck(password: string): Promise<void> {
  dummy ??= hashPassword('hikari-timing-equaliser');
  await verifyPassword(await dummy, password);
}
