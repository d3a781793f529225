// One participant's whole journey: every call the web app makes, in its order (captured from the
// browser on the complete pathway: landing with Prolific parameters, consent, entry 'questions', baseline,
// pre-survey, the four timed sections, the chat's opening and three rounds, post-survey, code, logout), and
// the pages' heartbeat (one a minute while visible; here one per section).

export interface CallRecord {
  /** Method and route pattern, e.g. `GET /api/participants/journey/:experimentId`. */
  endpoint: string;
  ms: number;
  ok: boolean;
  /** An event stream (the chat's replies): its time is the whole reply, not a request's latency. */
  streaming: boolean;
  error?: string;
}

export interface JourneyInput {
  base: string;
  experimentId: string;
  credential: { email: string; password: string };
  /** 1-6: the baseline intention (it picks the randomisation stratum). */
  intention: number;
  /** Waits between opening and finishing a section: longer than the bench study's minimum (bench-app.ts). */
  sectionWaitMs: number;
  record: (call: CallRecord) => void;
}

const MESSAGES = [
  'Hello, I have heard that the MMR vaccine might cause autism. Is that true?',
  'What side effects should I expect after the shot, and how long do they usually last?',
  'Thank you. Is it better to wait until my child is older before getting the second dose?',
];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function runJourney(input: JourneyInput): Promise<void> {
  const { base, experimentId: id } = input;
  let token = '';
  const call = async <T = unknown>(
    method: string,
    endpoint: string,
    url: string,
    body?: object,
    options: { expect?: number; streaming?: boolean } = {},
  ): Promise<T> => {
    const started = performance.now();
    let ok = false;
    let error: string | undefined;
    let text = '';
    try {
      const res = await fetch(base + url, {
        method,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
      });
      text = await res.text();
      ok = res.status === (options.expect ?? res.status) && (options.expect !== undefined || res.ok);
      if (ok && options.streaming && !text.includes('[DONE]')) {
        ok = false;
        error = 'stream ended without [DONE]';
      }
      if (!ok) error ??= `${res.status} ${text.slice(0, 200)}`;
    } catch (caught) {
      // fetch's own message is only "fetch failed": the socket's error is its cause.
      const cause = (caught as { cause?: unknown }).cause;
      error = cause === undefined ? String(caught) : `${String(caught)} (${String(cause)})`;
    }
    input.record({
      endpoint: `${method} ${endpoint}`,
      ms: performance.now() - started,
      ok,
      streaming: options.streaming ?? false,
      ...(error ? { error } : {}),
    });
    if (!ok) throw new Error(`${method} ${url}: ${error}`);
    return (text && !options.streaming ? JSON.parse(text) : undefined) as T;
  };

  const login = await call<{ token: string; user: { id: string } }>('POST', '/api/auth/login', '/api/auth/login', {
    email: input.credential.email,
    password: input.credential.password,
  });
  token = login.token;
  const userId = login.user.id;
  const pid = `BENCH${userId.replaceAll('-', '').slice(0, 16).toUpperCase()}`;
  const joinBody = { user_id: userId, experiment_id: id, prolific_pid: pid, study_id: 'bench', session_id: 'bench' };
  const journey = () => call('GET', '/api/participants/journey/:experimentId', `/api/participants/journey/${id}`);
  const survey = (survey_type: string, responses: object) =>
    call('POST', '/api/surveys', '/api/surveys', {
      user_id: userId,
      experiment_id: id,
      prolific_pid: pid,
      survey_type,
      responses,
    });

  // A write that leads to the next page answers with the journey, which that page's guard takes instead of
  // reading it (decision 0068): joining, consent, the entry and baseline answers, the condition, the last finish.
  await call('POST', '/api/participants', '/api/participants', joinBody, { expect: 201 });
  await call('PUT', '/api/participants/prolific-id', '/api/participants/prolific-id', {
    experimentId: id,
    prolificId: pid,
  });
  await call('POST', '/api/participants/consent', '/api/participants/consent', { experimentId: id });
  await survey('entry', { choice: 'questions' });
  const baseline = { vaccination_intention: String(input.intention) };
  await survey('baseline', baseline);
  // The pre-survey's success shows the assignment exists: the page creates one only on a 404 (decision 0067).
  await survey('pre', { age: '35-44', sex: 'male', political_leaning: 'liberal' });
  await call('POST', '/api/participants/assign-condition', '/api/participants/assign-condition', { experimentId: id });
  // The static page's guard reads it (Begin on the static intro writes nothing).
  await journey();
  // The first section is opened by the page; each finish opens the next in the same write (decision 0067).
  await call('POST', '/api/participants/sections/open', '/api/participants/sections/open', {
    experimentId: id,
    sectionIndex: 0,
  });
  for (let sectionIndex = 0; sectionIndex < 4; sectionIndex++) {
    // The study pages send a heartbeat each minute while visible; a journey takes a few minutes, most of
    // them reading the sections: one heartbeat while each section is read.
    await call('POST', '/api/participants/heartbeat', '/api/participants/heartbeat', {});
    await sleep(input.sectionWaitMs);
    await call('POST', '/api/participants/sections/finish', '/api/participants/sections/finish', {
      experimentId: id,
      sectionIndex,
      visibleSeconds: Math.ceil(input.sectionWaitMs / 1000),
      hiddenSeconds: 0,
    });
  }
  const { threadId } = await call<{ threadId: string }>('POST', '/api/chat/initiate', '/api/chat/initiate', {
    experimentId: id,
  });
  const thread = `/api/chat/threads/${threadId}`;
  await call('GET', '/api/chat/threads/:threadId/initial-message', `${thread}/initial-message`, undefined, {
    streaming: true,
  });
  for (const message of MESSAGES) {
    await call('POST', '/api/chat/threads/:threadId/messages', `${thread}/messages`, { message }, { streaming: true });
    await call('GET', '/api/chat/threads/:threadId/messages', `${thread}/messages`);
  }
  await journey();
  await survey('post', { post_intent: 6 });
  const code = '/api/experiments/:id/completion-code';
  await call('GET', code, `/api/experiments/${id}/completion-code?pathway=complete`);
  await call('POST', '/api/participants/completion', '/api/participants/completion', {
    experimentId: id,
    pathway: 'complete',
  });
  // The completion page shows the code the completion's reply carried (decision 0067).
  await call('POST', '/api/auth/logout', '/api/auth/logout', {});
}
