/**
 * The envelope of every API answer, and the stable error codes clients may branch on.
 * Imported by the server and by islands; imports neither.
 */
export interface ApiSuccess<T> {
  success: true;
  code: SuccessCode;
  message: string;
  data: T;
}

export interface ApiFailure {
  success: false;
  code: ErrorCode;
  message: string;
  data: null | { issues?: ApiIssue[]; retryAfter?: number };
}

export type ApiResponse<T> = ApiSuccess<T> | ApiFailure;

export interface ApiIssue {
  path: string;
  message: string;
}

export type SuccessCode = 'OK' | 'CREATED' | 'TOKEN_REFRESHED';

export const ERROR_CODES = [
  'VALIDATION_FAILED',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'PAYLOAD_TOO_LARGE',
  'RATE_LIMITED',
  'INVALID_CREDENTIALS',
  'ACCOUNT_BANNED',
  'TOKEN_EXPIRED',
  'TOKEN_INVALID',
  'REFRESH_TOKEN_INVALID',
  'REFRESH_TOKEN_REUSED',
  'TOKEN_ALREADY_ROTATED',
  'CODE_INVALID',
  'CODE_EXPIRED',
  'CODE_TOO_MANY_ATTEMPTS',
  'CODE_COOLDOWN',
  'NAME_TAKEN',
  'EMAIL_TAKEN',
  'INTERNAL_ERROR',
  'SERVICE_UNAVAILABLE',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface HealthData {
  status: 'ok';
  version: string;
  buildId: string;
  database: {
    dialect: 'sqlite' | 'postgres';
    migrations: { applied: number; pending: number; latest: string | null };
  };
  uptimeSeconds: number;
}

/** API paths, exactly as the spec names them. */
export const API_BASE = '/api';
export const apiPaths = {
  health: '/health',
} as const;
