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
  'CODE_PURPOSE_NOT_ALLOWED',
  'NAME_TAKEN',
  'EMAIL_TAKEN',
  'INTERNAL_ERROR',
  'SERVICE_UNAVAILABLE',
  'DATABASE_UNAVAILABLE',
  'STORAGE_FULL',
  'UNSUPPORTED_MEDIA_TYPE',
  'CROSS_SITE_REQUEST',
  'IMAGE_QUEUE_FULL',
  'METHOD_NOT_ALLOWED',
  'UPLOAD_URL_EXPIRED',
  'UPLOAD_URL_USED',
  'UPLOAD_SIGNATURE_INVALID',
  'UPLOAD_INCOMPLETE',
  'SLUG_TAKEN',
  'CONTENT_CONFLICT',
  'ALREADY_REPORTED',
  'FOLLOW_SELF',
  'USER_BANNED',
  'ALREADY_CHECKED_IN',
  'MAKE_UP_NOT_ALLOWED',
  'MAKE_UP_LIMIT',
  'MAKE_UP_COST_CHANGED',
  'INSUFFICIENT_POINTS',
  'CHAT_SELF',
  'CHAT_BLOCKED',
  'CHAT_PIN_LIMIT',
  'CHAT_CLIENT_ID_TAKEN',
  'EDIT_CONFLICT',
  'NOTHING_CHANGED',
  'REQUEST_CLOSED',
  'APPLICATION_OPEN',
  'APPLICATION_CLOSED',
  'ALREADY_CREATOR',
  'REPORT_CLOSED',
  'ROLE_NOT_ALLOWED',
  'NAME_IN_USE',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** One health check: whether it passed, and when it last ran (ISO time). */
export interface HealthCheck {
  ok: boolean;
  checkedAt: string;
}

export interface HealthData {
  /** `degraded` (answered with HTTP 503) when any check failed; `failing` names them. */
  status: 'ok' | 'degraded';
  checks: { database: HealthCheck; databaseWrite: HealthCheck };
  failing: ('database' | 'databaseWrite')[];
  version: string;
  buildId: string;
  database: {
    dialect: 'sqlite' | 'postgres';
    /** null when the database could not be read. */
    migrations: { applied: number; pending: number; latest: string | null } | null;
  };
  uptimeSeconds: number;
}

/** Where the API is mounted; each module's contract (`src/shared/<module>/`) names its paths. */
export const API_BASE = '/api';
