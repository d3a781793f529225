import type { FastifyInstance } from 'fastify';
import { studyRoutes } from '@studychat/contracts';
import type { AppContext } from '../../lib/context.js';
import { route } from '../../lib/route.js';
import { mergePrices } from '../../llm/pricing.js';
import { caller } from '../../plugins/auth.js';
import {
  checkStudyDefinition,
  cloneStudyVersion,
  createStudyVersion,
  deleteStudyVersion,
  getStudyVersion,
  listStudyVersions,
  pinStudyVersion,
  updateStudyVersion,
} from './studies.service.js';

/** Study versions (admin editor), pinning a version to an experiment, and the participant's view of the study. */
export function registerStudyRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { deps, guards } = ctx;
  const staff = { guards: [guards.requireStaff] };
  const admin = { guards: [guards.requireAdmin] };
  const version = (id: string) => ({ type: 'study_version', id });
  // A condition's model with no known price is refused when saved or pinned (docs/decisions/0073).
  const prices = mergePrices(ctx.config.llm.prices);

  route(app, studyRoutes.list, staff, () => listStudyVersions(deps));
  route(app, studyRoutes.get, staff, (request) => getStudyVersion(deps, request.params.id));
  route(
    app,
    studyRoutes.create,
    { ...admin, audit: { action: 'study_version.create', target: (_request, created) => version(created.id) } },
    (request) => createStudyVersion(deps, request.body, caller(request).userId, prices),
  );
  // Writes nothing, so no audit entry; admins only, like every edit of a version.
  route(app, studyRoutes.check, admin, async (request) => checkStudyDefinition(request.body.definition, prices));
  route(
    app,
    studyRoutes.clone,
    {
      ...admin,
      audit: {
        action: 'study_version.clone',
        target: (_request, created) => version(created.id),
        details: (request) => ({ from: request.params.id }),
      },
    },
    (request) => cloneStudyVersion(deps, request.params.id, request.body.label, caller(request).userId),
  );
  route(
    app,
    studyRoutes.update,
    {
      ...admin,
      audit: {
        action: 'study_version.update',
        target: (request) => version(request.params.id),
        details: (request) => ({ fields: Object.keys(request.body).sort() }),
      },
    },
    (request) => updateStudyVersion(deps, request.params.id, request.body, prices),
  );
  route(
    app,
    studyRoutes.remove,
    {
      ...admin,
      audit: {
        action: 'study_version.delete',
        target: (request) => version(request.params.id),
      },
    },
    (request) => deleteStudyVersion(deps, request.params.id),
  );
  route(
    app,
    studyRoutes.pin,
    {
      ...admin,
      audit: {
        action: 'experiment.study_version.pin',
        target: (request) => ({ type: 'experiment', id: request.params.id }),
        details: (request) => ({ study_version_id: request.body.study_version_id }),
      },
    },
    (request) => pinStudyVersion(deps, request.params.id, request.body.study_version_id, prices),
  );
}
