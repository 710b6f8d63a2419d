import type { ColumnType, Generated } from 'kysely';
import type { CodePurpose } from '../../../shared/auth.ts';

/** A login: one refresh-token family, revoked as a whole on logout, reuse or a password change. */
export interface RefreshFamilyTable {
  id: string;
  user_id: string;
  expires_at: string;
  revoked_at: string | null;
  revoke_reason: string | null;
  /** The browser's User-Agent when the login began (at most 512 characters), or null. */
  user_agent: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: string;
}

export interface RefreshTokenTable {
  id: string;
  family_id: string;
  token_hash: string;
  used_at: string | null;
  created_at: string;
}

export interface OneTimeCodeTable {
  id: string;
  email: string;
  purpose: CodePurpose;
  /** The account the code was issued for (reset_password, change_email); null for register. */
  user_id: string | null;
  code_hash: string;
  attempts: Generated<number>;
  expires_at: string;
  verified_at: string | null;
  consumed_at: string | null;
  created_at: string;
}

/** An address (keyed hash) an account has logged in from; such addresses are not held back by strangers' failures. */
export interface LoginKnownAddressTable {
  user_id: string;
  address_hash: string;
  created_at: string;
  last_seen_at: string;
}

declare module '../../db/database.ts' {
  interface Database {
    refresh_family: RefreshFamilyTable;
    refresh_token: RefreshTokenTable;
    one_time_code: OneTimeCodeTable;
    login_known_address: LoginKnownAddressTable;
  }
}
