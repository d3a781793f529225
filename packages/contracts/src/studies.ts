import { z } from 'zod';
import { defineRoute } from './route.js';
import { Id, IdParams, Timestamp } from './common.js';
import { LineText } from './text.js';
import { StudyDefinitionFields, StudyDefinitionSchema } from './study/schema.js';
import { FlowDefinitionShape } from './flow/schema.js';

// Study versions (issue 14): immutable once an experiment with participants runs them; the admin study
// editor creates, clones and edits them, and an experiment pins one.

export const STUDY_VERSION_LABEL_MAX = 200;
const Label = LineText.trim().min(1, 'Label is required').max(STUDY_VERSION_LABEL_MAX);

export const StudyVersionSummary = z.object({
  id: Id,
  label: z.string(),
  /** The definition's own id and title. */
  study_id: z.string(),
  title: z.string(),
  /** The version this one was cloned from. */
  parent_id: Id.nullable(),
  /** The built-in default (the MMR study). */
  is_default: z.boolean(),
  /** Experiments pinning this version. */
  experiments: z.number().int(),
  /** True once a real participant (not a preview) ran it: it can no longer change (clone it to edit). */
  locked: z.boolean(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type StudyVersionSummary = z.infer<typeof StudyVersionSummary>;

/** A version's definition: the built-in shape, or a flow of steps (issue 30). */
export const StudyVersion = StudyVersionSummary.extend({
  definition: z.union([StudyDefinitionSchema, FlowDefinitionShape]),
});
export type StudyVersion = z.infer<typeof StudyVersion>;

/**
 * The definition arrives as any JSON object and is checked by the service, which answers 400
 * `STUDY_INVALID` listing every problem with its path (the editor shows them inline).
 */
const DefinitionBody = z.record(LineText.max(100), z.unknown());

export const CreateStudyVersionBody = z.object({ label: Label, definition: DefinitionBody }).strict();
export const UpdateStudyVersionBody = z
  .object({ label: Label.optional(), definition: DefinitionBody.optional() })
  .strict()
  .refine(
    (b) => b.label !== undefined || b.definition !== undefined,
    'Nothing to update: send label and/or definition',
  );
/** A definition to check without saving (the editor checks its draft as the researcher types). */
export const CheckStudyDefinitionBody = z.object({ definition: DefinitionBody }).strict();
/** Every problem with its path, as a refused save lists them; empty when the definition is valid. */
export const StudyCheckReply = z.object({ issues: z.array(z.object({ path: z.string(), message: z.string() })) });
export type StudyCheckReply = z.infer<typeof StudyCheckReply>;

export const CloneStudyVersionBody = z.object({ label: Label.optional() }).strict();

export const PinStudyVersionBody = z.object({ study_version_id: Id }).strict();

/**
 * What a participant's browser gets of the study: everything but the chat's prompts and scripted replies and
 * the researchers' names of the pathways (docs/decisions/0056).
 */
export const ParticipantStudy = StudyDefinitionFields.omit({ chat: true, pathways: true }).extend({
  chat: z.object({
    fallbackGreetings: StudyDefinitionFields.shape.chat.shape.fallbackGreetings,
    completion: StudyDefinitionFields.shape.chat.shape.completion,
  }),
  version_id: Id.nullable(),
});
export type ParticipantStudy = z.infer<typeof ParticipantStudy>;

export const ExperimentIdParams = z.object({ experimentId: Id });

export const studyRoutes = {
  list: defineRoute({ method: 'GET', path: '/api/admin/study-versions', reply: z.array(StudyVersionSummary) }),
  get: defineRoute({ method: 'GET', path: '/api/admin/study-versions/:id', params: IdParams, reply: StudyVersion }),
  create: defineRoute({
    method: 'POST',
    path: '/api/admin/study-versions',
    body: CreateStudyVersionBody,
    reply: StudyVersion,
    status: 201,
  }),
  update: defineRoute({
    method: 'PUT',
    path: '/api/admin/study-versions/:id',
    params: IdParams,
    body: UpdateStudyVersionBody,
    reply: StudyVersion,
  }),
  /** Deletes a version no experiment pins and no participant ran (admins; audited; docs/decisions/0077). */
  remove: defineRoute({
    method: 'DELETE',
    path: '/api/admin/study-versions/:id',
    params: IdParams,
    reply: z.object({ id: Id }),
  }),
  check: defineRoute({
    method: 'POST',
    path: '/api/admin/study-versions/check',
    body: CheckStudyDefinitionBody,
    reply: StudyCheckReply,
  }),
  clone: defineRoute({
    method: 'POST',
    path: '/api/admin/study-versions/:id/clone',
    params: IdParams,
    body: CloneStudyVersionBody,
    reply: StudyVersion,
    status: 201,
  }),
  pin: defineRoute({
    method: 'PUT',
    path: '/api/experiments/:id/study-version',
    params: IdParams,
    body: PinStudyVersionBody,
    reply: z.object({ experiment_id: Id, study_version_id: Id }),
  }),
  participantView: defineRoute({
    method: 'GET',
    path: '/api/participants/study/:experimentId',
    params: ExperimentIdParams,
    reply: ParticipantStudy,
  }),
};
