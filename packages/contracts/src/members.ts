import { z } from 'zod';
import { defineRoute } from './route.js';
import { Id, IdParams, Ok, Timestamp } from './common.js';
import { LineText } from './text.js';

// The people on an experiment (issue 34, docs/decisions/0087): an owner, editors and viewers. An experiment
// with an owner is members-only: a staff account that is not a member gets 404 on every route of it. One
// without (every experiment from before members) is lab-wide: staff act by their account role.

export const ExperimentRole = z.enum(['owner', 'editor', 'viewer']);
export type ExperimentRole = z.infer<typeof ExperimentRole>;

export const ExperimentMember = z.object({
  user_id: Id,
  email: z.string(),
  role: ExperimentRole,
  /** The member's account role: an analyst acts as a viewer at most, whatever the member role. */
  account_role: z.enum(['admin', 'analyst']),
  added_by: Id.nullable(),
  created_at: Timestamp,
});
export type ExperimentMember = z.infer<typeof ExperimentMember>;

export const ExperimentMembers = z.object({
  /** No owner: every staff account sees the experiment and acts by its account role. */
  lab_wide: z.boolean(),
  /** What the caller may do here: owner, editor or viewer. */
  your_role: ExperimentRole,
  members: z.array(ExperimentMember),
});
export type ExperimentMembers = z.infer<typeof ExperimentMembers>;

export const AddMemberBody = z.object({
  email: LineText.trim().min(1, 'Email is required').max(254).pipe(z.email('Email must be a valid email address')),
  role: ExperimentRole,
});
export type AddMemberBody = z.infer<typeof AddMemberBody>;

export const MemberRoleBody = z.object({ role: ExperimentRole });
export type MemberRoleBody = z.infer<typeof MemberRoleBody>;

export const MemberParams = z.object({ id: Id, userId: Id });

export const memberRoutes = {
  list: defineRoute({
    method: 'GET',
    path: '/api/experiments/:id/members',
    params: IdParams,
    reply: ExperimentMembers,
  }),
  /** A staff account by email; on a lab-wide experiment the caller becomes its owner too. Owner only. */
  add: defineRoute({
    method: 'POST',
    path: '/api/experiments/:id/members',
    params: IdParams,
    body: AddMemberBody,
    reply: ExperimentMembers,
    status: 201,
  }),
  /** Never leaves the experiment without an owner. Owner only. */
  setRole: defineRoute({
    method: 'PUT',
    path: '/api/experiments/:id/members/:userId',
    params: MemberParams,
    body: MemberRoleBody,
    reply: ExperimentMembers,
  }),
  /** Never the last owner. Owner only. */
  remove: defineRoute({
    method: 'DELETE',
    path: '/api/experiments/:id/members/:userId',
    params: MemberParams,
    reply: Ok,
  }),
};
