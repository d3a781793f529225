import {
  CHAT_LIMIT_REASONS,
  CHAT_POINTS_TARGET,
  CHAT_ROUNDS_TARGET,
  conditionIds,
  LIKERT_MAX,
  LIKERT_MIN,
  MAX_LOGGED_PASTES,
  PARTICIPANT_STATUSES,
  PATHWAYS,
  STRATA,
  SURVEY_TYPES,
  studyDefinition,
  studyPathways,
  type ExportFile,
  type StudyDefinition,
} from '@studychat/contracts';
import type { CsvColumn } from './csv.js';
import { blockSize } from '../participants/permuted-block.js';
import { sectionCountOf, type ParticipantRecord } from './participant-record.js';
import { preColumns } from './pre-columns.js';

// The columns of every export file, defined once: each list writes its file's header and rows and the
// codebook's entries for it, so the files and the codebook cannot disagree.

const list = (values: readonly string[]) => values.join('; ');
const LIKERT = `${LIKERT_MIN}-${LIKERT_MAX}`;

const MID = (LIKERT_MIN + LIKERT_MAX) / 2;
const quoted = (text: string) => `“${text}”`;

function sectionColumns(count: number): CsvColumn<ParticipantRecord>[] {
  return Array.from({ length: count }, (_, index) => {
    const n = index + 1;
    return [
      {
        name: `section_${n}_seconds`,
        type: 'number' as const,
        meaning: `Seconds from the server opening static section ${n} to accepting it as finished (for sections read before the server timed them: seconds on screen as the page reported); empty if never finished`,
        allowed: '>= 0',
        minimum: 0,
        value: (r: ParticipantRecord) => r.sections[index]?.seconds,
      },
      {
        name: `section_${n}_min_met`,
        type: 'boolean' as const,
        meaning: `Whether section ${n} took at least its minimum time (the study's minimum seconds for that section and condition); empty if never finished`,
        allowed: 'TRUE; FALSE',
        value: (r: ParticipantRecord) => {
          const s = r.sections[index];
          return s ? s.seconds >= s.minSeconds : null;
        },
      },
    ];
  }).flat();
}

/**
 * participants.csv's columns for a study version: the section columns and the wording of the questions come
 * from the version the experiment pins (the codebook and datapackage.json follow it), never from the built-in
 * study when the experiment runs another one.
 */
export function participantColumns(study: StudyDefinition): readonly CsvColumn<ParticipantRecord>[] {
  const cached = columnsByStudy.get(study);
  if (cached) return cached;
  const columns: (CsvColumn<ParticipantRecord> | typeof PRE)[] = [
    { name: 'experiment_id', type: 'text', meaning: 'Experiment id', value: (r) => r.experimentId },
    { name: 'user_id', type: 'text', meaning: 'Study login (user) id', value: (r) => r.userId },
    { name: 'email', type: 'text', meaning: 'Generated study login email', value: (r) => r.email },
    { name: 'assignment_id', type: 'text', meaning: 'Participant assignment id', value: (r) => r.assignmentId },
    {
      name: 'prolific_pid',
      type: 'text',
      meaning: 'Prolific participant id (PROLIFIC_PID)',
      value: (r) => r.prolificPid,
    },
    { name: 'study_id', type: 'text', meaning: 'Prolific STUDY_ID from the landing URL', value: (r) => r.studyId },
    {
      name: 'session_id',
      type: 'text',
      meaning: 'Prolific SESSION_ID from the landing URL',
      value: (r) => r.sessionId,
    },
    {
      name: 'condition',
      type: 'text',
      meaning: 'Randomised condition; empty if never assigned (left before the pre-survey)',
      allowed: list(conditionIds(study)),
      enum: conditionIds(study),
      value: (r) => r.condition,
    },
    {
      name: 'stratum',
      type: 'text',
      meaning: 'Randomisation stratum (baseline intention band) the condition was drawn in',
      allowed: list(STRATA),
      enum: STRATA,
      value: (r) => r.stratum,
    },
    {
      name: 'condition_assigned_at',
      type: 'timestamp',
      meaning: 'When the condition was assigned',
      value: (r) => r.conditionAssignedAt,
    },
    {
      name: 'assignment_created_at',
      type: 'timestamp',
      meaning: 'When the participant first logged in from Prolific (assignment created)',
      value: (r) => r.assignmentCreatedAt,
    },
    { name: 'last_login_at', type: 'timestamp', meaning: 'Last login of the study login', value: (r) => r.lastLoginAt },
    {
      name: 'consent_given',
      type: 'boolean',
      meaning: 'Whether informed consent was given',
      allowed: 'TRUE; FALSE',
      value: (r) => r.consentGiven,
    },
    {
      name: 'consent_timestamp',
      type: 'timestamp',
      meaning: 'When consent was given',
      value: (r) => r.consentTimestamp,
    },
    {
      name: 'entry_choice',
      type: 'text',
      meaning: `Entry page answer: 'questions' (${quoted(study.entry.questionsLabel)}) or 'confirm' (${quoted(study.entry.confirmLabel)}); in surveys.csv: question '${study.entry.key}', values '${study.entry.values.continue}' and '${study.entry.values.exit}'`,
      allowed: 'questions; confirm',
      enum: ['questions', 'confirm'],
      value: (r) => r.entryChoice,
    },
    {
      name: 'baseline_intention',
      type: 'integer',
      meaning: `Baseline answer to ${quoted(study.baseline.question)} (${LIKERT_MIN} ${study.baseline.labels.min}, ${MID} ${study.baseline.labels.mid}, ${LIKERT_MAX} ${study.baseline.labels.max}); in surveys.csv: question '${study.baseline.key}'`,
      allowed: LIKERT,
      minimum: LIKERT_MIN,
      maximum: LIKERT_MAX,
      value: (r) => r.baselineIntention,
    },
    PRE,
    ...sectionColumns(sectionCountOf(study)),
    {
      name: 'chat_turns',
      type: 'integer',
      meaning: 'Chat messages the participant sent (rounds); empty if the participant never reached the chat',
      allowed: '>= 0',
      minimum: 0,
      value: (r) => r.chatTurns,
    },
    {
      name: 'user_char_count',
      type: 'integer',
      meaning:
        'Characters the participant sent in the chat, each message trimmed of surrounding white space (counted as the chat progress rule counts them: UTF-16 code units); empty if the chat was never reached',
      allowed: '>= 0',
      minimum: 0,
      value: (r) => r.userCharCount,
    },
    {
      name: 'chat_points',
      type: 'number',
      meaning: 'Engagement points: chat_turns x 10 + user_char_count x 0.5; empty if the chat was never reached',
      allowed: '>= 0',
      minimum: 0,
      value: (r) => r.chatPoints,
    },
    {
      name: 'chat_complete',
      type: 'boolean',
      meaning: `Whether the chat met the completion rule of the participant's condition in the study version (the spec's unless the study sets its own: points >= ${CHAT_POINTS_TARGET} and turns >= ${CHAT_ROUNDS_TARGET}); empty if the chat was never reached`,
      allowed: 'TRUE; FALSE',
      value: (r) => r.chatComplete,
    },
    {
      name: 'chat_closed_by',
      type: 'text',
      meaning:
        "The limit that ended the chat before the participant left it: 'message_limit' (messages per participant), 'token_limit' (tokens per participant) or 'budget' (the experiment's chat budget was spent); the chat did not run its course, so exclusions by delivery can be computed from it. Empty if no limit ended the chat or the chat was never reached",
      allowed: CHAT_LIMIT_REASONS.join('; '),
      enum: [...CHAT_LIMIT_REASONS],
      value: (r) => r.chatClosedBy,
    },
    {
      name: 'assistant_messages',
      type: 'integer',
      meaning:
        'Assistant messages in the chat, the initial greeting and failed replies included; empty if the chat was never reached',
      allowed: '>= 0',
      minimum: 0,
      value: (r) => r.assistantMessages,
    },
    {
      name: 'assistant_input_tokens',
      type: 'integer',
      meaning:
        'Input tokens summed over the assistant messages; empty if the chat was never reached or none were recorded',
      allowed: '>= 0',
      minimum: 0,
      value: (r) => r.assistantInputTokens,
    },
    {
      name: 'assistant_output_tokens',
      type: 'integer',
      meaning:
        'Output tokens summed over the assistant messages; empty if the chat was never reached or none were recorded',
      allowed: '>= 0',
      minimum: 0,
      value: (r) => r.assistantOutputTokens,
    },
    {
      name: 'assistant_cost_usd',
      type: 'number',
      meaning:
        'Model cost in US dollars summed over the assistant messages; empty if the chat was never reached or no price was known',
      allowed: '>= 0',
      minimum: 0,
      value: (r) => r.assistantCostUsd,
    },
    {
      name: 'post_intent',
      type: 'integer',
      meaning: `Post-survey answer to ${quoted(study.post.question)}, same scale as baseline_intention; in surveys.csv: question '${study.post.key}'`,
      allowed: LIKERT,
      minimum: LIKERT_MIN,
      maximum: LIKERT_MAX,
      value: (r) => r.postIntent,
    },
    {
      name: 'delta',
      type: 'integer',
      meaning: 'post_intent minus baseline_intention; empty if either is missing',
      allowed: `${LIKERT_MIN - LIKERT_MAX} to ${LIKERT_MAX - LIKERT_MIN}`,
      minimum: LIKERT_MIN - LIKERT_MAX,
      maximum: LIKERT_MAX - LIKERT_MIN,
      value: (r) => r.delta,
    },
    {
      name: 'intervention_completed_at',
      type: 'timestamp',
      meaning:
        "When the intervention was completed; only for completion_pathway 'complete' (empty for the screened-out pathways)",
      value: (r) => r.interventionCompletedAt,
    },
    {
      name: 'completion_pathway',
      type: 'text',
      // The study's words for its pathways (docs/decisions/0056); the spec's for the MMR study.
      meaning: `How the participant finished: ${studyPathways(study)
        .map((p) => `'${p.pathway}' (${p.label})`)
        .join(', ')}; empty if not finished`,
      allowed: list(PATHWAYS),
      enum: PATHWAYS,
      value: (r) => r.completionPathway,
    },
    {
      name: 'completion_code',
      type: 'text',
      meaning: 'Prolific completion code given to the participant',
      value: (r) => r.completionCode,
    },
    { name: 'completed_at', type: 'timestamp', meaning: 'When completion was recorded', value: (r) => r.completedAt },
    {
      name: 'status',
      type: 'text',
      meaning:
        "At the time of the export: 'completed' (completion recorded, any pathway), 'screened_out' (at the no-concerns or intention-ceiling exit, code not taken yet), 'stale' (in progress without activity for the experiment's stale minutes, default 30), 'in_progress' (anyone else)",
      allowed: list(PARTICIPANT_STATUSES),
      enum: PARTICIPANT_STATUSES,
      value: (r) => r.status,
    },
    {
      name: 'pathway',
      type: 'text',
      meaning:
        "The pathway the participant's answers put them on, finished or not: completion_pathway if recorded, else 'confirm' (no concerns at entry), 'ceiling' (baseline 7), 'complete' (any other baseline); empty before the baseline",
      allowed: list(PATHWAYS),
      enum: PATHWAYS,
      value: (r) => r.pathway,
    },
    {
      name: 'randomisation_block',
      type: 'integer',
      meaning: 'The permuted block (within the stratum) the condition was drawn from; empty if never assigned',
      allowed: '>= 0',
      minimum: 0,
      value: (r) => r.randomisationBlock,
    },
    {
      name: 'randomisation_position',
      type: 'integer',
      meaning: `Position of the participant's slot within that block, 1 to ${blockSize(conditionIds(study))}; empty if never assigned`,
      allowed: `1-${blockSize(conditionIds(study))}`,
      minimum: 1,
      maximum: blockSize(conditionIds(study)),
      value: (r) => r.randomisationPosition,
    },
    {
      name: 'all_sections_min_met',
      type: 'boolean',
      meaning:
        "Exclusion flag: every static section of the participant's condition was finished at its minimum by the server's clock; empty if never assigned",
      allowed: 'TRUE; FALSE',
      value: (r) => r.allSectionsMinMet,
    },
    {
      name: 'duplicate_prolific_pid',
      type: 'boolean',
      meaning:
        'Exclusion flag: another participant of this experiment carries the same Prolific id; empty without a Prolific id',
      allowed: 'TRUE; FALSE',
      value: (r) => r.duplicateProlificPid,
    },
    {
      name: 'hidden_time_share',
      type: 'number',
      meaning:
        'Exclusion measure: hidden seconds / (visible + hidden seconds) over the finished server-timed sections, as the browser reported (0 to 1, 4 decimals); empty if none',
      allowed: '0 to 1',
      minimum: 0,
      maximum: 1,
      value: (r) => r.hiddenTimeShare,
    },
    {
      name: 'paste_attempts',
      type: 'integer',
      meaning: `Pastes (or dropped text) the chat box blocked, as the participant's browser reported them (only the length is recorded, never the text; at most ${MAX_LOGGED_PASTES} are counted); empty if the chat was never reached`,
      allowed: `0-${MAX_LOGGED_PASTES}`,
      minimum: 0,
      maximum: MAX_LOGGED_PASTES,
      value: (r) => r.pasteAttempts,
    },
    {
      name: 'pasted_in_chat',
      type: 'boolean',
      meaning:
        'Exclusion flag: at least one blocked paste in the chat box (paste_attempts > 0); empty if the chat was never reached',
      allowed: 'TRUE; FALSE',
      value: (r) => (r.pasteAttempts === null ? null : r.pasteAttempts > 0),
    },
    {
      name: 'is_test',
      type: 'boolean',
      meaning:
        'A test run ("preview as participant"), not a real participant. Test runs are left out of every download unless it is asked for with ?include_tests=true (then this column says which rows they are)',
      allowed: 'TRUE; FALSE',
      value: (r) => r.isTest,
    },
    {
      name: 'study_version_id',
      type: 'text',
      meaning:
        'The study version (study content) the participant ran under; its content hash is in datapackage.json (studychat.study_versions); empty: from before study versions (the built-in study)',
      value: (r) => r.studyVersionId,
    },
  ];
  // The pre-survey columns sit after the baseline, named by the version's keys, clear of the fixed names.
  const fixed = columns.filter((c): c is CsvColumn<ParticipantRecord> => c !== PRE);
  const all = columns.flatMap((c) => (c === PRE ? preColumns(study, new Set(fixed.map((f) => f.name))) : [c]));
  columnsByStudy.set(study, all);
  return all;
}

/** Where participantColumns puts the pre-survey's columns. */
const PRE = Symbol('pre-survey columns');

const columnsByStudy = new WeakMap<StudyDefinition, readonly CsvColumn<ParticipantRecord>[]>();

/** participants.csv's columns for the built-in study. */
export const PARTICIPANT_COLUMNS = participantColumns(studyDefinition);

/** One chat message, as messages.csv writes it (field names follow the stored row). */
export interface MessageRecord {
  experimentId: string;
  userId: string;
  prolificPid: string | null;
  condition: string;
  threadId: string;
  messageId: string;
  position: number;
  role: string;
  content: string;
  createdAt: string;
  isInitial: boolean;
  status: string;
  errorMessage: string | null;
  modelUsed: string | null;
  inputTokens: number | null;
  outputTokens: number | null;
  /** The token counts are estimates: the provider reported none (docs/decisions/0073). */
  usageEstimated: boolean;
  /** Of inputTokens, those at the plain input price, written to the prompt cache and read from it (0076). */
  uncachedInputTokens: number | null;
  cacheWriteTokens: number | null;
  cacheReadTokens: number | null;
  costUsd: number | null;
  queueMs: number | null;
  fallbackFrom: string | null;
  firstTokenMs: number | null;
  totalMs: number | null;
  stopReason: string | null;
  thinking: string | null;
}

/** What messages.csv needs of a study: its conditions (a flow's, issue 30, as well as the built-in shape's). */
type StudyConditions = Pick<StudyDefinition, 'conditionList'>;
const messageColumnsByStudy = new WeakMap<StudyConditions, readonly CsvColumn<MessageRecord>[]>();

/** messages.csv's columns; the condition's allowed values are the study version's (docs/decisions/0061). */
export function messageColumns(study: StudyConditions): readonly CsvColumn<MessageRecord>[] {
  const cached = messageColumnsByStudy.get(study);
  if (cached) return cached;
  const columns = buildMessageColumns(study);
  messageColumnsByStudy.set(study, columns);
  return columns;
}

const buildMessageColumns = (study: StudyConditions): readonly CsvColumn<MessageRecord>[] => [
  { name: 'experiment_id', type: 'text', meaning: 'Experiment id', value: (r) => r.experimentId },
  { name: 'user_id', type: 'text', meaning: 'Study login (user) id; joins participants.csv', value: (r) => r.userId },
  { name: 'prolific_pid', type: 'text', meaning: 'Prolific participant id', value: (r) => r.prolificPid },
  {
    name: 'condition',
    type: 'text',
    meaning: 'Condition the chat ran in',
    allowed: list(conditionIds(study)),
    enum: conditionIds(study),
    value: (r) => r.condition,
  },
  { name: 'thread_id', type: 'text', meaning: 'Chat thread id (one per participant)', value: (r) => r.threadId },
  { name: 'message_id', type: 'text', meaning: 'Message id', value: (r) => r.messageId },
  {
    name: 'position',
    type: 'integer',
    meaning: 'Order of the message in its thread, from 0',
    allowed: '>= 0',
    minimum: 0,
    value: (r) => r.position,
  },
  {
    name: 'role',
    type: 'text',
    meaning: "'user' (the participant) or 'assistant' (the AI)",
    allowed: 'user; assistant',
    enum: ['user', 'assistant'],
    value: (r) => r.role,
  },
  {
    name: 'content',
    type: 'text',
    meaning:
      'Message text exactly as sent or shown: nothing added or removed (line breaks kept inside the quoted field; no spreadsheet formula prefix)',
    value: (r) => r.content,
  },
  { name: 'created_at', type: 'timestamp', meaning: 'When the message was stored', value: (r) => r.createdAt },
  {
    name: 'is_initial',
    type: 'boolean',
    meaning: 'Whether this is the assistant’s opening message',
    allowed: 'TRUE; FALSE',
    value: (r) => r.isInitial,
  },
  {
    name: 'status',
    type: 'text',
    meaning:
      "'complete'; 'error' (the model failed; text that arrived is kept); 'interrupted' (the server stopped part way; the text saved so far is kept); 'empty' (the model answered nothing); 'streaming' (being written at export time)",
    allowed: 'complete; error; interrupted; empty; streaming',
    enum: ['complete', 'error', 'interrupted', 'empty', 'streaming'],
    value: (r) => r.status,
  },
  {
    name: 'error_message',
    type: 'text',
    meaning: 'Why an assistant reply failed or stopped; empty otherwise',
    value: (r) => r.errorMessage,
  },
  { name: 'model', type: 'text', meaning: 'Model that wrote an assistant message', value: (r) => r.modelUsed },
  {
    name: 'input_tokens',
    type: 'integer',
    meaning: 'Model input tokens',
    allowed: '>= 0',
    minimum: 0,
    value: (r) => r.inputTokens,
  },
  {
    name: 'output_tokens',
    type: 'integer',
    meaning: 'Model output tokens (thinking included)',
    allowed: '>= 0',
    minimum: 0,
    value: (r) => r.outputTokens,
  },
  {
    name: 'usage_estimated',
    type: 'boolean',
    meaning:
      "Whether input_tokens and output_tokens (and so cost_usd) are the server's estimates from the text (about three characters a token), because the provider reported no usage for this reply; FALSE: as the provider reported them",
    allowed: 'TRUE; FALSE',
    value: (r) => r.usageEstimated,
  },
  {
    name: 'uncached_input_tokens',
    type: 'integer',
    meaning:
      "Of input_tokens, those billed at the model's plain input price (neither written to nor read from the provider's prompt cache); empty for messages stored before the cache was counted, and when usage_estimated",
    allowed: '>= 0',
    minimum: 0,
    value: (r) => r.uncachedInputTokens,
  },
  {
    name: 'cache_write_tokens',
    type: 'integer',
    meaning:
      "Of input_tokens, those written to the provider's prompt cache, billed at the model's cache-write price; empty when not recorded",
    allowed: '>= 0',
    minimum: 0,
    value: (r) => r.cacheWriteTokens,
  },
  {
    name: 'cache_read_tokens',
    type: 'integer',
    meaning:
      "Of input_tokens, those read from the provider's prompt cache, billed at the model's cache-read (cached input) price; empty when not recorded",
    allowed: '>= 0',
    minimum: 0,
    value: (r) => r.cacheReadTokens,
  },
  {
    name: 'cost_usd',
    type: 'number',
    meaning: 'Model cost in US dollars, as the provider bills it: each kind of token at its own price',
    allowed: '>= 0',
    value: (r) => r.costUsd,
  },
  {
    name: 'queue_ms',
    type: 'integer',
    meaning:
      "Milliseconds the reply waited its turn at the AI provider (the deployment's shared rate limit, or the provider asking to wait); empty: it did not wait",
    allowed: '>= 0',
    minimum: 0,
    value: (r) => r.queueMs,
  },
  {
    name: 'fallback_from',
    type: 'text',
    meaning:
      "The condition's model that this reply's fallback model stood in for (it was overloaded or kept failing); empty: the condition's own model answered (see model)",
    value: (r) => r.fallbackFrom,
  },
  {
    name: 'first_token_ms',
    type: 'integer',
    meaning: 'Milliseconds from the request to the model until its first text',
    allowed: '>= 0',
    minimum: 0,
    value: (r) => r.firstTokenMs,
  },
  {
    name: 'total_ms',
    type: 'integer',
    meaning: 'Milliseconds the whole reply took',
    allowed: '>= 0',
    minimum: 0,
    value: (r) => r.totalMs,
  },
  {
    name: 'stop_reason',
    type: 'text',
    meaning: 'Why the model stopped (as the model reports it)',
    value: (r) => r.stopReason,
  },
  {
    name: 'thinking',
    type: 'json',
    meaning:
      'The model\'s thinking log as JSON text: an array of {"type":"thinking","thinking":"..."} and {"type":"redacted_thinking"} entries in order; empty if none',
    value: (r) => r.thinking,
  },
];

/** messages.csv's columns for the built-in study (the rows do not depend on the study). */
export const MESSAGE_COLUMNS = messageColumns(studyDefinition);

/** One survey answer, as surveys.csv writes it (long format: one row per question). */
export interface SurveyAnswerRecord {
  experimentId: string;
  userId: string;
  prolificPid: string | null;
  responseId: string;
  surveyType: string;
  question: string;
  value: string | number | boolean | null;
  submittedAt: string;
}

/** surveys.csv's columns; the codebook's allowed question keys are the study version's. */
export function surveyColumns(study: StudyDefinition): readonly CsvColumn<SurveyAnswerRecord>[] {
  return [
    { name: 'experiment_id', type: 'text', meaning: 'Experiment id', value: (r) => r.experimentId },
    { name: 'user_id', type: 'text', meaning: 'Study login (user) id; joins participants.csv', value: (r) => r.userId },
    { name: 'prolific_pid', type: 'text', meaning: 'Prolific participant id', value: (r) => r.prolificPid },
    {
      name: 'response_id',
      type: 'text',
      meaning: 'Survey response id (one per participant and survey)',
      value: (r) => r.responseId,
    },
    {
      name: 'survey_type',
      type: 'text',
      meaning: 'Which survey: entry page, baseline intention, pre-survey, post-survey',
      allowed: list(SURVEY_TYPES),
      enum: SURVEY_TYPES,
      value: (r) => r.surveyType,
    },
    {
      name: 'question',
      type: 'text',
      meaning: 'Question key within the survey (the answer keys of the study version the experiment pins)',
      allowed: `entry: ${study.entry.key}; baseline: ${study.baseline.key}; pre: ${study.pre.questions.map((q) => q.key).join(', ')}; post: ${study.post.key}`,
      value: (r) => r.question,
    },
    {
      name: 'value',
      type: 'text',
      meaning:
        'The answer as submitted (see the matching participants.csv column for its values); a nested answer is JSON text',
      value: (r) => r.value,
    },
    { name: 'submitted_at', type: 'timestamp', meaning: 'When the survey was submitted', value: (r) => r.submittedAt },
  ];
}

/** surveys.csv's columns for the built-in study (the rows do not depend on the study). */
export const SURVEY_COLUMNS = surveyColumns(studyDefinition);

/** The data files and their columns for a study version, in the order the codebook lists them. */
export function dataFileColumns(study: StudyDefinition) {
  return {
    'participants.csv': participantColumns(study),
    'messages.csv': messageColumns(study),
    'surveys.csv': surveyColumns(study),
  } as const satisfies Partial<Record<ExportFile, readonly CsvColumn<never>[]>>;
}

/** The data files of the built-in study. */
export const DATA_FILE_COLUMNS = dataFileColumns(studyDefinition);
