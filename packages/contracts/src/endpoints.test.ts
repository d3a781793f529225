import { describe, expect, it } from 'vitest';
import { prolificJoinRoutes, prolificRoutes } from './prolific.js';
import { prolificLaunchRoutes } from './prolific-launch.js';
import { prolificPayRoutes } from './prolific-pay.js';
import {
  adminRoutes,
  authRoutes,
  chatRoutes,
  costEstimateRoutes,
  endpoints,
  experimentRoutes,
  healthRoutes,
  journeyRoutes,
  memberRoutes,
  waveRoutes,
  monitorRoutes,
  participantRoutes,
  pilotRoutes,
  previewRoutes,
  providerHealthRoutes,
  flowRoutes,
  securityRoutes,
  staffRoutes,
  studyRoutes,
  surveyRoutes,
} from './index.js';

const routeGroups = {
  auth: authRoutes,
  health: healthRoutes,
  experiments: experimentRoutes,
  participants: participantRoutes,
  surveys: surveyRoutes,
  chat: chatRoutes,
  journey: journeyRoutes,
  monitor: monitorRoutes,
  admin: adminRoutes,
  security: securityRoutes,
  staff: staffRoutes,
  studies: studyRoutes,
  preview: previewRoutes,
  flow: flowRoutes,
  costEstimate: costEstimateRoutes,
  providerHealth: providerHealthRoutes,
  prolific: prolificRoutes,
  prolificJoin: prolificJoinRoutes,
  prolificLaunch: prolificLaunchRoutes,
  prolificPay: prolificPayRoutes,
  pilot: pilotRoutes,
  members: memberRoutes,
  waves: waveRoutes,
} as const;

describe('endpoints', () => {
  it('lists every route object with the same method and path, and nothing else', () => {
    for (const [group, routes] of Object.entries(routeGroups)) {
      const eps = endpoints[group as keyof typeof endpoints] as Record<string, { method: string; path: string }>;
      expect(Object.keys(eps).sort(), group).toEqual(Object.keys(routes).sort());
      for (const [name, def] of Object.entries(routes)) {
        expect(eps[name], `${group}.${name}`).toEqual({ method: def.method, path: def.path });
      }
    }
    expect(Object.keys(endpoints).sort()).toEqual(Object.keys(routeGroups).sort());
  });
});
