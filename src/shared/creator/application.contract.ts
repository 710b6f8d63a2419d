import { z } from 'zod';
import { IMAGE_URL_MAX, type UserGroup } from '../auth-model.ts';
import type { Pagination } from '../catalogue-model.ts';
import { as, endpoint, type Contract } from '../contract.ts';
import { messageRef } from '../i18n/index.ts';
import { decimalId, queryInt, safeText } from '../input-rules.ts';
import type { ApplicationStatus, EditType, RequestStatus } from './creator-model.ts';
import {
  APPLICATION_FILTERS,
  APPLICATION_IMAGES_MAX,
  APPLICATION_REASON_MAX,
  APPLICATION_REASON_MIN,
  REJECTION_REASON_MAX,
} from './application-model.ts';

/*
 * Creator applications (spec §7 /user/creator-application/submit and /status, decision 028): a member
 * asks to join the creator group with a reason and up to nine images of our image bed; an admin approves
 * (the member becomes a creator) or refuses with a reason. And the creator centre's overview
 * (/create/home) in one call.
 */

export {
  APPLICATION_FILTERS,
  APPLICATION_IMAGES_MAX,
  APPLICATION_REASON_MAX,
  APPLICATION_REASON_MIN,
  REJECTION_REASON_MAX,
  type ApplicationFilter,
} from './application-model.ts';

/** One application as its author and the reviewers see it. */
export interface CreatorApplicationView {
  id: number;
  status: ApplicationStatus;
  reason: string;
  images: string[];
  /** Why it was refused; '' unless rejected. */
  rejectionReason: string;
  createdAt: string;
  updatedAt: string;
  reviewedAt: string | null;
}

/** GET /user/creator-application/status: the member's latest application and the group they are in now. */
export interface ApplicationStatusData {
  application: CreatorApplicationView | null;
  /** The member's group in the database: a token that says otherwise is refreshed by the page. */
  group: UserGroup;
}

/** The member behind an application, as the review page shows them. */
export interface ApplicantView {
  _id: string;
  userId: number;
  name: string;
  avatar: string;
  group: UserGroup;
  joinedAt: string;
  postCount: number;
  articleCount: number;
}

export interface ReviewedApplicationView extends CreatorApplicationView {
  applicant: ApplicantView;
  reviewer: { userId: number; name: string } | null;
}

export interface ApplicationPage {
  items: ReviewedApplicationView[];
  pagination: Pagination;
  /** Pending applications in all (the queue's size, whatever the filter). */
  pending: number;
}

/** A member's update request as their overview lists it. */
export interface OverviewRequest {
  id: number;
  itemType: EditType;
  itemId: number | null;
  /** The title or name in the proposed document ('' when it has none). */
  title: string;
  status: RequestStatus;
  reviewNote: string;
  reviewedAt: string | null;
  updatedAt: string;
}

/** A queue of work waiting for staff: its size and the page that works it. */
export interface OverviewQueue {
  id: 'updateRequests' | 'reports' | 'applications';
  count: number;
  href: string;
}

/** GET /creator/overview: the member's own numbers and, for staff, the queues waiting for them. */
export interface CreatorOverview {
  group: UserGroup;
  hikariPoint: number;
  content: { drafts: number; published: number };
  requests: {
    /** Every status, 0 when none. */
    counts: Record<RequestStatus, number>;
    /** The latest that were decided (approved, rejected, sent back), newest first. */
    outcomes: OverviewRequest[];
  };
  /** Empty for members who review nothing. */
  queues: OverviewQueue[];
}

/** How many decided requests the overview lists. */
export const OVERVIEW_OUTCOMES = 5;

const imagesField = z
  .array(safeText({ max: IMAGE_URL_MAX, label: 'application.label.image', min: 1 }), {
    error: 'application.error.imagesList',
  })
  .max(APPLICATION_IMAGES_MAX, {
    error: messageRef('application.error.tooManyImages', { max: APPLICATION_IMAGES_MAX }),
  });

export const submitApplicationBodySchema = z.object({
  reason: safeText({
    kind: 'multiline',
    min: APPLICATION_REASON_MIN,
    max: APPLICATION_REASON_MAX,
    label: 'application.label.reason',
  }),
  images: imagesField.default([]),
});
export type SubmitApplicationBody = z.input<typeof submitApplicationBodySchema>;

export const rejectApplicationBodySchema = z.object({
  reason: safeText({ kind: 'multiline', min: 1, max: REJECTION_REASON_MAX, label: 'application.label.rejection' }),
});
export type RejectApplicationBody = z.input<typeof rejectApplicationBodySchema>;

const applicationParams = z.object({ id: decimalId() });
/** POSTs that need nothing but the path still send a JSON body (`{}`), as every POST here does. */
const emptyBody = z.strictObject({});

const listQuery = z.object({
  status: z.enum(APPLICATION_FILTERS, { error: 'application.error.filter' }).default('all'),
  page: queryInt({ min: 1, max: 10_000, label: 'validation.label.page' }).default(1),
  limit: queryInt({ min: 1, max: 50, label: 'validation.label.pageSize' }).default(20),
});

export const creatorApplicationContract = {
  submit: endpoint({
    method: 'POST',
    path: '/user/creator-application/submit',
    body: submitApplicationBodySchema,
    response: as<ApplicationStatusData>(),
    auth: 'required',
    summary:
      'Applies to join the creator group: a reason (10–1000 characters) and up to 9 images the member uploaded; one pending application at a time (409 APPLICATION_OPEN), not for creators and above (409 ALREADY_CREATOR); 5 a day',
  }),
  status: endpoint({
    method: 'GET',
    path: '/user/creator-application/status',
    response: as<ApplicationStatusData>(),
    auth: 'required',
    summary: "The caller's latest application (or null) and their current group",
  }),
  withdraw: endpoint({
    method: 'POST',
    path: '/user/creator-application/:id/withdraw',
    params: applicationParams,
    body: emptyBody,
    response: as<ApplicationStatusData>(),
    auth: 'required',
    summary: "Takes back the caller's pending application (409 APPLICATION_CLOSED once decided)",
  }),
  list: endpoint({
    method: 'GET',
    path: '/creator/applications',
    query: listQuery,
    response: as<ApplicationPage>(),
    auth: 'required',
    summary: 'Admins: applications by status (`all`: pending first, oldest waiting first; then the latest decided)',
  }),
  approve: endpoint({
    method: 'POST',
    path: '/creator/applications/:id/approve',
    params: applicationParams,
    body: emptyBody,
    response: as<ReviewedApplicationView>(),
    auth: 'required',
    summary:
      'Admins: approves a pending application; a plain member joins the creator group, audited and notified (409 APPLICATION_CLOSED when already decided)',
  }),
  reject: endpoint({
    method: 'POST',
    path: '/creator/applications/:id/reject',
    params: applicationParams,
    body: rejectApplicationBodySchema,
    response: as<ReviewedApplicationView>(),
    auth: 'required',
    summary: 'Admins: refuses a pending application with a reason, audited and notified',
  }),
  overview: endpoint({
    method: 'GET',
    path: '/creator/overview',
    response: as<CreatorOverview>(),
    auth: 'required',
    summary:
      "The creator centre's overview: the caller's drafts, published content, update requests and points, and the queues waiting for staff",
  }),
} as const satisfies Contract;
