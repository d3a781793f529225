import { describe, expect, it } from 'vitest';
import type { Journey } from '@studychat/contracts/web';
import { decideStudyRoute, type GuardDecision, type GuardInput, type StudyStep } from './study-guard';
import type { StudySession } from './study-storage';
import { journey } from './test-support';

const EXP = '11111111-1111-4111-8111-111111111111';
const OTHER = '22222222-2222-4222-8222-222222222222';

/** A participant who has done everything up to the static content. */
const progressed: StudySession = {
  experimentId: EXP,
  consentGiven: true,
  entrySubmitted: true,
  baselineIntention: '4',
  preSurveySubmitted: true,
  assignedCondition: 'mmr',
  staticContentReviewed: false,
  experimentCompleted: false,
};
const fresh: StudySession = {
  experimentId: EXP,
  consentGiven: false,
  entrySubmitted: false,
  baselineIntention: null,
  preSurveySubmitted: false,
  assignedCondition: null,
  staticContentReviewed: false,
  experimentCompleted: false,
};
const participant = { loggedIn: true, isAdmin: false };
const admin = { loggedIn: true, isAdmin: true };
const anonymous = { loggedIn: false, isAdmin: false };
const completed = { alreadyCompleted: true, completionPathway: 'confirm' as const, completionCode: 'NQ-1' };
const notCompleted = { alreadyCompleted: false, completionPathway: null, completionCode: null };

const allow: GuardDecision = { kind: 'allow' };
const to = (path: string, pathway?: 'complete' | 'confirm' | 'ceiling'): GuardDecision =>
  pathway ? { kind: 'redirect', to: path, pathway } : { kind: 'redirect', to: path };

interface Row {
  rule: string;
  step: StudyStep;
  session?: Partial<StudySession>;
  base?: StudySession;
  auth?: GuardInput['auth'];
  completion?: GuardInput['completion'];
  routeExperimentId?: string;
  expected: GuardDecision;
}

const rows: Row[] = [
  // Unauthenticated: study pages to /prolific, experiment routes to /login.
  ...(['consent', 'entry', 'confirm', 'baseline-intention', 'pre-survey', 'post-survey', 'completion'] as const).map(
    (step): Row => ({ rule: 'anonymous on a study page', step, auth: anonymous, expected: to('/prolific') }),
  ),
  ...(['static-intro', 'static', 'chat'] as const).map((step): Row => ({
    rule: 'anonymous on an experiment route',
    step,
    auth: anonymous,
    routeExperimentId: EXP,
    expected: to('/login'),
  })),
  // Completion status: cached or fetched alreadyCompleted sends to /completion with the stored pathway.
  { rule: 'completed participant', step: 'entry', completion: completed, expected: to('/completion', 'confirm') },
  {
    rule: 'completed, on consent',
    step: 'consent',
    base: fresh,
    completion: completed,
    expected: to('/completion', 'confirm'),
  },
  {
    rule: 'completed, on an experiment route',
    step: 'chat',
    routeExperimentId: EXP,
    completion: { ...completed, completionPathway: 'complete' },
    expected: to('/completion', 'complete'),
  },
  {
    rule: 'completed, pathway unknown',
    step: 'entry',
    completion: { ...completed, completionPathway: null },
    expected: to('/completion'),
  },
  { rule: 'completed, already on /completion', step: 'completion', completion: completed, expected: allow },
  { rule: 'admins skip the completion check', step: 'entry', auth: admin, completion: completed, expected: allow },
  { rule: 'status still loading', step: 'entry', completion: 'pending', expected: { kind: 'wait' } },
  { rule: 'admins do not wait for the status', step: 'entry', auth: admin, completion: 'pending', expected: allow },
  { rule: 'not completed', step: 'entry', completion: notCompleted, expected: allow },
  // Consent.
  { rule: 'consent page before consent', step: 'consent', base: fresh, expected: allow },
  { rule: 'consent page after consent', step: 'consent', expected: to('/entry') },
  ...(['entry', 'confirm', 'baseline-intention', 'pre-survey', 'post-survey'] as const).map((step): Row => ({
    rule: 'missing consent',
    step,
    base: fresh,
    expected: to('/consent'),
  })),
  {
    rule: 'missing consent on an experiment route',
    step: 'static',
    base: fresh,
    routeExperimentId: EXP,
    expected: to('/consent'),
  },
  { rule: 'completion page needs no consent', step: 'completion', base: fresh, expected: allow },
  // Pre-survey prerequisites.
  {
    rule: 'pre-survey without entry',
    step: 'pre-survey',
    base: fresh,
    session: { consentGiven: true, baselineIntention: '3' },
    expected: to('/entry'),
  },
  {
    rule: 'pre-survey without baseline',
    step: 'pre-survey',
    base: fresh,
    session: { consentGiven: true, entrySubmitted: true },
    expected: to('/baseline-intention'),
  },
  {
    rule: 'pre-survey with entry and baseline',
    step: 'pre-survey',
    base: fresh,
    session: { consentGiven: true, entrySubmitted: true, baselineIntention: '3' },
    expected: allow,
  },
  // Repair of a pre-survey flag without experiment id or condition.
  {
    rule: 'flag without condition',
    step: 'entry',
    session: { assignedCondition: null },
    expected: { kind: 'repair', experimentId: EXP },
  },
  {
    rule: 'flag without experiment id uses the route id',
    step: 'static',
    routeExperimentId: EXP,
    session: { experimentId: null },
    expected: { kind: 'repair', experimentId: EXP },
  },
  {
    rule: 'flag without any experiment id',
    step: 'entry',
    session: { experimentId: null },
    expected: { kind: 'repair', experimentId: null },
  },
  // Experiment routes.
  { rule: 'experiment route, all set', step: 'static-intro', routeExperimentId: EXP, expected: allow },
  { rule: 'chat, all set', step: 'chat', routeExperimentId: EXP, expected: allow },
  { rule: 'another experiment id in the route', step: 'static', routeExperimentId: OTHER, expected: to('/pre-survey') },
  {
    rule: 'no condition yet',
    step: 'static',
    routeExperimentId: EXP,
    session: { preSurveySubmitted: false, assignedCondition: null },
    expected: to('/pre-survey'),
  },
  {
    rule: 'experiment completed',
    step: 'chat',
    routeExperimentId: EXP,
    session: { experimentCompleted: true },
    expected: to('/completion', 'complete'),
  },
  {
    rule: 'static intro skips to chat once reviewed',
    step: 'static-intro',
    routeExperimentId: EXP,
    session: { staticContentReviewed: true },
    expected: to(`/experiment/${EXP}/chat`),
  },
  {
    rule: 'static skips to chat once reviewed',
    step: 'static',
    routeExperimentId: EXP,
    session: { staticContentReviewed: true },
    expected: to(`/experiment/${EXP}/chat`),
  },
  {
    rule: 'chat stays once reviewed',
    step: 'chat',
    routeExperimentId: EXP,
    session: { staticContentReviewed: true },
    expected: allow,
  },
  // Other pages once consented.
  { rule: 'entry after consent', step: 'entry', base: fresh, session: { consentGiven: true }, expected: allow },
  { rule: 'post-survey after consent', step: 'post-survey', expected: allow },
];

describe('decideStudyRoute (spec section 4 guards)', () => {
  it.each(rows)(
    '$rule: $step',
    ({ step, session, base = progressed, auth = participant, completion = null, routeExperimentId, expected }) => {
      expect(decideStudyRoute({ step, session: { ...base, ...session }, auth, completion, routeExperimentId })).toEqual(
        expected,
      );
    },
  );
});

describe("decideStudyRoute: the condition is one of the study's conditions (docs/decisions/0061)", () => {
  const at = (assignedCondition: string, conditions: readonly string[] | null) =>
    decideStudyRoute({
      step: 'static',
      session: { ...progressed, assignedCondition },
      auth: participant,
      completion: null,
      routeExperimentId: EXP,
      conditions,
    });

  it('allows a condition the study declares, and sends any other to /pre-survey', () => {
    expect(at('screens', ['sleep', 'teeth', 'screens'])).toEqual(allow);
    expect(at('mmr', ['sleep', 'teeth', 'screens'])).toEqual(to('/pre-survey'));
    expect(at('mmr', ['mmr', 'control'])).toEqual(allow);
    expect(at('placebo', ['mmr', 'control'])).toEqual(to('/pre-survey'));
  });

  it('checks only that there is a condition when the study could not be read', () => {
    expect(at('screens', null)).toEqual(allow);
  });
});

describe('decideStudyRoute with the server journey (the server wins)', () => {
  const sectionOpened = { openedAt: '2026-11-21T09:00:00.000Z' };
  const at = (step: Journey['step'], extra: Partial<Journey> = {}): Journey =>
    journey({ experimentId: EXP, step, done: { ...journey().done, consent: step !== 'consent' }, ...extra });
  const decide = (step: StudyStep, server: Journey | 'pending', routeExperimentId?: string, auth = participant) =>
    decideStudyRoute({ step, session: fresh, auth, completion: null, routeExperimentId, journey: server });

  it.each([
    { page: 'consent', server: at('consent'), route: undefined, expected: allow },
    { page: 'entry', server: at('consent'), route: undefined, expected: to('/consent') },
    { page: 'consent', server: at('entry'), route: undefined, expected: to('/entry') },
    { page: 'entry', server: at('entry'), route: undefined, expected: allow },
    { page: 'confirm', server: at('entry'), route: undefined, expected: allow },
    { page: 'confirm', server: at('consent'), route: undefined, expected: to('/consent') },
    { page: 'baseline-intention', server: at('entry'), route: undefined, expected: to('/entry') },
    {
      page: 'baseline-intention',
      server: at('confirm_exit', { pathway: 'confirm' }),
      route: undefined,
      expected: to('/completion', 'confirm'),
    },
    { page: 'completion', server: at('confirm_exit', { pathway: 'confirm' }), route: undefined, expected: allow },
    { page: 'completion', server: at('ceiling_exit', { pathway: 'ceiling' }), route: undefined, expected: allow },
    { page: 'completion', server: at('pre_survey'), route: undefined, expected: to('/pre-survey') },
    { page: 'pre-survey', server: at('pre_survey'), route: undefined, expected: allow },
    { page: 'pre-survey', server: at('assignment'), route: undefined, expected: allow },
    { page: 'static', server: at('assignment'), route: EXP, expected: to('/pre-survey') },
    { page: 'pre-survey', server: at('sections'), route: undefined, expected: to(`/experiment/${EXP}/static-intro`) },
    {
      page: 'chat',
      server: at('sections', { sections: [{ ...journey().sections[0], ...sectionOpened } as Journey['sections'][0]] }),
      route: EXP,
      expected: to(`/experiment/${EXP}/static`),
    },
    { page: 'static-intro', server: at('sections'), route: EXP, expected: allow },
    { page: 'static', server: at('sections'), route: EXP, expected: allow },
    { page: 'static', server: at('sections'), route: OTHER, expected: to(`/experiment/${EXP}/static-intro`) },
    { page: 'static', server: at('chat'), route: EXP, expected: to(`/experiment/${EXP}/chat`) },
    { page: 'post-survey', server: at('chat'), route: undefined, expected: to(`/experiment/${EXP}/chat`) },
    { page: 'chat', server: at('chat'), route: EXP, expected: allow },
    { page: 'chat', server: at('post_survey'), route: EXP, expected: allow },
    { page: 'post-survey', server: at('post_survey'), route: undefined, expected: allow },
    {
      page: 'post-survey',
      server: at('completion', { pathway: 'complete' }),
      route: undefined,
      expected: to('/completion', 'complete'),
    },
    { page: 'completion', server: at('completion', { pathway: 'complete' }), route: undefined, expected: allow },
    {
      page: 'entry',
      server: at('completed', { pathway: 'ceiling' }),
      route: undefined,
      expected: to('/completion', 'ceiling'),
    },
    {
      page: 'confirm',
      server: at('completed', { pathway: 'confirm' }),
      route: undefined,
      expected: to('/completion', 'confirm'),
    },
  ] satisfies { page: StudyStep; server: Journey; route: string | undefined; expected: GuardDecision }[])(
    '$page at server step $server.step',
    ({ page, server, route, expected }) => {
      expect(decide(page, server, route)).toEqual(expected);
    },
  );

  it('waits for the journey, and lets admins (who have none) through on the session rules', () => {
    expect(decide('entry', 'pending')).toEqual({ kind: 'wait' });
    expect(decide('entry', 'pending', undefined, admin)).toEqual(to('/consent'));
    expect(decide('entry', at('consent'), undefined, anonymous)).toEqual(to('/prolific'));
  });
});
