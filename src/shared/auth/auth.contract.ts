import {
  changeEmailRequestSchema,
  changeEmailUpdateSchema,
  changePasswordSchema,
  codeRequestSchema,
  codeVerifySchema,
  loginSchema,
  logoutSchema,
  refreshSchema,
  registerSchema,
  resetCodeSchema,
  resetPasswordSchema,
  signupCheckSchema,
  type CodeRequestData,
  type RefreshData,
  type SessionData,
  type SessionUser,
} from '../auth.ts';
import { as, endpoint } from '../contract.ts';

/** Answer of the signup check: whether the name and the email are still free. */
export interface SignupAvailability {
  name: { available: boolean };
  email: { available: boolean };
}

/** Accounts and sessions (spec §7 "Auth and user"). */
export const authContract = {
  login: endpoint({
    method: 'POST',
    path: '/v2/user/login',
    body: loginSchema,
    response: as<SessionData>(),
    summary: 'Logs in with a name or email and the password; answers the session and its tokens',
  }),
  register: endpoint({
    method: 'POST',
    path: '/v2/user/register',
    body: registerSchema,
    response: as<SessionData>(),
    summary: 'Creates an account with a register code (201) and logs it in',
  }),
  signupCheck: endpoint({
    method: 'POST',
    path: '/v2/user/verification-for-signup',
    body: signupCheckSchema,
    response: as<SignupAvailability>(),
    summary: 'Says whether a name and an email are still free',
  }),
  codeRequest: endpoint({
    method: 'POST',
    path: '/v2/email/verification-code/request',
    body: codeRequestSchema,
    response: as<CodeRequestData>(),
    summary: 'Mails a register or password-reset code (change_email codes come from change-email/request)',
  }),
  codeVerify: endpoint({
    method: 'POST',
    path: '/v2/email/verification-code/verify',
    body: codeVerifySchema,
    response: as<{ verified: true }>(),
    auth: 'optional',
    summary: 'Checks a code without using it up; a change_email code only for its own logged-in account',
  }),
  resetPasswordCode: endpoint({
    method: 'POST',
    path: '/user/reset-password-code',
    body: resetCodeSchema,
    response: as<CodeRequestData>(),
    summary: 'Mails a password-reset code (the same answer for unknown emails)',
  }),
  resetPassword: endpoint({
    method: 'POST',
    path: '/user/reset-password',
    body: resetPasswordSchema,
    response: as<null>(),
    summary: 'Sets a new password with a reset code; every login of the account ends',
  }),
  refresh: endpoint({
    method: 'POST',
    path: '/user/refresh-token',
    body: refreshSchema,
    response: as<RefreshData>(),
    summary: 'Rotates the refresh token and answers a new token pair (code TOKEN_REFRESHED)',
  }),
  logout: endpoint({
    method: 'POST',
    path: '/user/logout',
    body: logoutSchema,
    response: as<null>(),
    summary: 'Ends the login of the given refresh token (always succeeds)',
  }),
  changePassword: endpoint({
    method: 'POST',
    path: '/user/change-password',
    body: changePasswordSchema,
    response: as<SessionData>(),
    auth: 'required',
    summary: 'Changes the password and answers a new session; every other login ends',
  }),
  changeEmailRequest: endpoint({
    method: 'POST',
    path: '/v2/user/change-email/request',
    body: changeEmailRequestSchema,
    response: as<CodeRequestData>(),
    auth: 'required',
    summary: 'Mails a change_email code to the new address after checking the current password',
  }),
  changeEmailUpdate: endpoint({
    method: 'POST',
    path: '/v2/user/change-email/update',
    body: changeEmailUpdateSchema,
    response: as<{ user: SessionUser }>(),
    auth: 'required',
    summary: 'Changes the email with the code mailed to the new address',
  }),
} as const;
