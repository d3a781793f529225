import type { ColumnType, Insertable, Selectable, Updateable } from 'kysely';

/** Timestamptz on PostgreSQL, ISO text on SQLite; both read as ISO text (db/pg-timestamps.ts), written as an ISO string. */
export type DbTimestamp = ColumnType<Date | string, string, string>;
/** boolean on PostgreSQL, 0/1 on SQLite; written as a boolean (the SQLite driver maps it). */
export type DbBool = ColumnType<boolean | number, boolean, boolean>;
/** PostgreSQL may return numeric aggregates as strings. */
export type DbNumber = ColumnType<number, number, number>;

export interface UsersTable {
  id: string;
  email: string;
  password_hash: string;
  is_admin: DbBool;
  /** participant | analyst | admin (admins also have is_admin true). */
  role: ColumnType<string, string | undefined, string>;
  /** JSON object as text. */
  metadata: string | null;
  /** The TOTP secret, encrypted (modules/auth/secret-box.ts); set at enrolment, before it is enabled. */
  totp_secret: ColumnType<string | null, string | null | undefined, string | null>;
  totp_enabled_at: ColumnType<Date | string | null, string | null | undefined, string | null>;
  /** The last TOTP time step accepted: a code is never accepted twice. */
  totp_last_step: ColumnType<number | string | null, number | null | undefined, number | null>;
  /** Set when the account was revoked (a study login, docs/decisions/0077): it can no longer log in. */
  disabled_at: ColumnType<Date | string | null, string | null | undefined, string | null>;
  created_at: DbTimestamp;
  updated_at: DbTimestamp;
  last_login_at: DbTimestamp | null;
  /** The participant's last API call, written at most once per 30 s (modules/monitor/last-seen.ts). */
  last_seen_at: ColumnType<Date | string | null, string | null | undefined, string | null>;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  created_at: DbTimestamp;
  expires_at: DbTimestamp;
  revoked_at: DbTimestamp | null;
  /** Only TOTP enrolment and logout are allowed (two-factor required but not yet set up). */
  restricted: ColumnType<boolean | number, boolean | undefined, boolean>;
}

export interface AuditLogTable {
  id: string;
  actor_id: string;
  actor_email: string;
  action: string;
  target_type: string | null;
  target_id: string | null;
  /** JSON object as text. */
  details: string | null;
  created_at: DbTimestamp;
}

/**
 * One row per account (`account:<email>`), per account+address pair (`pair:<email> <address>`) and per address
 * (`address:<address>`: failures across accounts, docs/decisions/0074-hardening.md).
 */
export interface LoginThrottlesTable {
  key: string;
  /** Attempts counted in the current window (reserved before the password is checked). */
  attempts: number;
  window_start: DbTimestamp;
  /** No attempt before this time (the growing delay of a pair). */
  blocked_until: DbTimestamp | null;
  updated_at: DbTimestamp;
}

/** Addresses an account has logged in from: the owner's usual addresses are never locked out. */
export interface LoginKnownAddressesTable {
  user_id: string;
  address: string;
  last_login_at: DbTimestamp;
}

/** Which experiment a generated study login belongs to (owned by the experiments module). */
export interface StudyLoginsTable {
  user_id: string;
  experiment_id: string;
  batch_id: string;
  created_at: DbTimestamp;
}

/** A quota (docs/decisions/0077): at most `max_participants` real participants assigned to the condition in the
 * stratum, or in every stratum together when `stratum` is ''. */
export interface ExperimentQuotasTable {
  experiment_id: string;
  condition: string;
  stratum: string;
  max_participants: number;
}

/** One experiment's completion code for one pathway (docs/decisions/0046); no row: not configured. */
export interface CompletionCodesTable {
  experiment_id: string;
  pathway: string;
  code: string;
}

/** A one-time "preview as participant" link (docs/decisions/0045): only the token's SHA-256 is stored. */
export interface PreviewLinksTable {
  token_hash: string;
  user_id: string;
  experiment_id: string;
  created_by: string | null;
  created_at: DbTimestamp;
  expires_at: DbTimestamp;
  used_at: ColumnType<Date | string | null, string | null | undefined, string | null>;
}

export interface ExperimentsTable {
  id: string;
  name: string;
  description: string | null;
  /** The experiment's own chat limits; null: the environment's default applies (chat-limits.ts). */
  chat_max_messages: number | null;
  chat_max_message_chars: number | null;
  chat_reply_tokens: number | null;
  chat_history_tokens: number | null;
  chat_participant_tokens: number | null;
  chat_budget_usd: DbNumber | null;
  /** Percent of the budget spent after which no new participant is admitted; null: the default (0073). */
  chat_admit_percent: ColumnType<number | null, number | null | undefined, number | null>;
  /** Minutes without activity after which a participant in progress is stale; null: the default. */
  monitor_stale_minutes: ColumnType<number | null, number | null | undefined, number | null>;
  /** The sample size the monitor projects the spend at; null: none set. */
  target_sample_size: ColumnType<number | null, number | null | undefined, number | null>;
  /** The study version the experiment runs (study_versions.id); null only before the default is seeded. */
  study_version_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** draft | open | paused | closed | archived (docs/decisions/0077); open for every experiment made before. */
  state: ColumnType<string, string | undefined, string>;
  created_at: DbTimestamp;
  updated_at: DbTimestamp;
}

/** A study definition as data (JSON text); unchangeable once an experiment with participants pins it. */
export interface StudyVersionsTable {
  id: string;
  label: string;
  /** The StudyDefinition as JSON text. */
  definition: string;
  parent_id: string | null;
  /** The built-in study (the MMR study), written by the server at start. */
  is_default: DbBool;
  created_by: string | null;
  created_at: DbTimestamp;
  updated_at: DbTimestamp;
}

export interface AssignmentsTable {
  id: string;
  user_id: string;
  experiment_id: string;
  prolific_pid: string | null;
  study_id: string | null;
  session_id: string | null;
  assigned_condition: string | null;
  stratum: string | null;
  condition_assigned_at: DbTimestamp | null;
  consent_given: DbBool;
  consent_timestamp: DbTimestamp | null;
  intervention_completed_timestamp: DbTimestamp | null;
  completion_pathway: string | null;
  completion_code: string | null;
  completed_at: DbTimestamp | null;
  /** The study version this participant ran under; null: before study versions (the built-in study). */
  study_version_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** A run of "preview as participant": left out of summaries and exports by default. */
  is_test: ColumnType<boolean | number, boolean | undefined, boolean>;
  created_at: DbTimestamp;
  updated_at: DbTimestamp;
}

export interface AllocationSlotsTable {
  id: string;
  experiment_id: string;
  stratum: string;
  block_index: number;
  seq: number;
  condition: string;
  assignment_id: string | null;
  created_at: DbTimestamp;
  claimed_at: DbTimestamp | null;
}

export interface SurveyResponsesTable {
  id: string;
  user_id: string;
  experiment_id: string;
  prolific_pid: string | null;
  survey_type: string;
  /** JSON object as text. */
  responses: string;
  created_at: DbTimestamp;
}

export interface SectionExposuresTable {
  id: string;
  user_id: string;
  experiment_id: string;
  condition: string;
  section_index: number;
  section_id: string;
  min_seconds: number;
  seconds_on_screen: DbNumber;
  completed_at: DbTimestamp;
}

/** When the server opened and finished each static section (the journey module's table). */
export interface SectionViewsTable {
  id: string;
  assignment_id: string;
  user_id: string;
  experiment_id: string;
  condition: string;
  section_index: number;
  section_id: string;
  min_seconds: number;
  opened_at: DbTimestamp;
  finished_at: DbTimestamp | null;
  /** As the page reported them when the section was finished. */
  visible_seconds: DbNumber | null;
  hidden_seconds: DbNumber | null;
  /** The study version the section was shown under (stamped at insert from the experiment's pin). */
  study_version_id: ColumnType<string | null, string | null | undefined, string | null>;
}

/** The append-only participant event log (the journey module's table). */
export interface JourneyEventsTable {
  /** Monotonically increasing position; PostgreSQL returns the bigint as a string. */
  seq: ColumnType<number | string, never, never>;
  experiment_id: string;
  user_id: string;
  assignment_id: string | null;
  type: string;
  step: string;
  /** Small JSON object as text. */
  data: string | null;
  created_at: DbTimestamp;
}

/** The first assignment to present a Prolific id in an experiment holds it (one id, one participation). */
export interface ExperimentProlificIdsTable {
  experiment_id: string;
  prolific_pid: string;
  assignment_id: string;
  user_id: string;
  created_at: DbTimestamp;
}

/** A withdrawn Prolific id (docs/decisions/0026): only a hash of experiment and id, so it cannot join again. */
export interface WithdrawnProlificIdsTable {
  experiment_id: string;
  /** SHA-256 (hex) of `<experiment id>:<Prolific id>`. */
  pid_sha256: string;
  withdrawn_at: DbTimestamp;
}

export interface ChatThreadsTable {
  id: string;
  user_id: string;
  experiment_id: string;
  condition: string;
  title: string | null;
  reply_lock_id: string | null;
  reply_lock_until: DbTimestamp | null;
  /** Input plus output tokens of the thread's assistant messages (PostgreSQL bigint may read as a string). */
  tokens_used: ColumnType<number | string, number | undefined, number>;
  cost_usd: ColumnType<number | string, number | undefined, number>;
  /**
   * USD reserved by the reply in flight, before its model call (docs/decisions/0073); counted only while the
   * thread's reply lease is live, and set back to 0 when the reply's cost is stored.
   */
  reserved_usd: ColumnType<number | string, number | undefined, number>;
  /** Of tokens_used, the input tokens written to and read from the provider's prompt cache (docs/decisions/0076). */
  cache_write_tokens: ColumnType<number | string, number | undefined, number>;
  cache_read_tokens: ColumnType<number | string, number | undefined, number>;
  /** Why the chat ended by a limit (message_limit, token_limit, budget); null while open. */
  closed_reason: string | null;
  closed_at: DbTimestamp | null;
  created_at: DbTimestamp;
  updated_at: DbTimestamp;
}

export interface ChatMessagesTable {
  id: string;
  thread_id: string;
  position: number;
  role: 'user' | 'assistant';
  content: string;
  is_initial: DbBool;
  status: 'complete' | 'streaming' | 'interrupted' | 'error' | 'empty';
  error_message: string | null;
  model_used: string | null;
  /** Every input token billed, cached or not. */
  input_tokens: number | null;
  output_tokens: number | null;
  /**
   * Of input_tokens, those billed at the plain input price, written to the prompt cache and read from it
   * (docs/decisions/0076); null on messages stored before, and when the provider reported no usage.
   */
  uncached_input_tokens: ColumnType<number | null, number | null | undefined, number | null>;
  cache_write_tokens: ColumnType<number | null, number | null | undefined, number | null>;
  cache_read_tokens: ColumnType<number | null, number | null | undefined, number | null>;
  /** Milliseconds the reply waited its turn (the shared rate limit, a provider's retry-after); null: none recorded. */
  queue_ms: ColumnType<number | null, number | null | undefined, number | null>;
  /** The condition's model this reply stood in for, when its fallback model answered (docs/decisions/0076). */
  fallback_from: ColumnType<string | null, string | null | undefined, string | null>;
  cost_usd: DbNumber | null;
  /** The token counts (and so the cost) are estimates: the provider reported none (docs/decisions/0073). */
  usage_estimated: ColumnType<boolean | number, boolean | undefined, boolean>;
  first_token_ms: number | null;
  total_ms: number | null;
  stop_reason: string | null;
  /** JSON array of thinking entries as text. */
  thinking_log: string | null;
  /** The study version the message was written under (stamped at insert from the experiment's pin). */
  study_version_id: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: DbTimestamp;
}

/** A flow step a participant has done that no other table records (issue 30): owned by the journey module. */
export interface StepRecordsTable {
  id: string;
  assignment_id: string;
  step_id: string;
  step_type: string;
  /** JSON: a questions page's answers by key; an AI text's generation and confirmed text. */
  data: string;
  done_at: DbTimestamp | null;
  created_at: DbTimestamp;
  updated_at: DbTimestamp;
}

/** A provider's pause after it asked to wait (retry-after), shared by every server process; owned by chat. */
export interface LlmProvidersTable {
  provider: string;
  paused_until: DbTimestamp | null;
}

/**
 * A reply's turn at the provider (docs/decisions/0076): `waiting` in `seq` order, `running` while its call is made,
 * `done` kept a minute for the tokens-per-minute window. Live while its thread's reply lease `lease_id` is.
 */
export interface LlmTurnsTable {
  id: string;
  provider: string;
  seq: number;
  thread_id: string;
  lease_id: string;
  state: 'waiting' | 'running' | 'done';
  tokens: number;
  granted_at: DbTimestamp | null;
}

/** The Prolific connection (one row, id 'default'); both secrets sealed (modules/auth/secret-box.ts). */
export interface ProlificSettingsTable {
  id: string;
  api_token: string | null;
  webhook_secret: string | null;
  updated_by: string | null;
  updated_at: DbTimestamp;
}

/** The Prolific study an experiment runs as (the prolific module's table). */
/** Whether an experiment lets participants join by Prolific's study link alone (prolific-join module). */
export interface ProlificLinkJoinTable {
  experiment_id: string;
  enabled: DbBool;
  updated_by: string | null;
  updated_at: DbTimestamp;
}

export interface ProlificStudyLinksTable {
  experiment_id: string;
  study_id: string;
  updated_at: DbTimestamp;
}

/** A participant's submission status on Prolific, from its webhooks (prolific module). */
export interface ProlificSubmissionsTable {
  assignment_id: string;
  submission_id: string | null;
  status: string;
  /** When Prolific sent the status (X-Prolific-Request-Timestamp): an older event never overwrites a newer one. */
  status_at: DbTimestamp;
  updated_at: DbTimestamp;
}

/** The server's own completion of a participant's submission (prolific module). */
export interface ProlificCompletionsTable {
  assignment_id: string;
  code: string;
  /** pending, done or failed */
  state: string;
  attempts: ColumnType<number, number | undefined, number>;
  last_error: string | null;
  updated_at: DbTimestamp;
}

/** The webhook events already handled, by Prolific's X-Event-ID (prolific module). */
export interface ProlificWebhookEventsTable {
  event_id: string;
  event_type: string;
  /** matched, unmatched or ignored */
  outcome: string;
  received_at: DbTimestamp;
}

/** An experiment's launch on Prolific (docs/decisions/0090): claimed before Prolific is called. */
export interface ProlificLaunchesTable {
  experiment_id: string;
  /** creating | draft | publishing | published */
  state: string;
  study_id: string | null;
  study_url: string | null;
  credentials: ColumnType<number, number | undefined, number>;
  launched_by: string | null;
  launched_at: DbTimestamp | null;
  published_at: DbTimestamp | null;
  updated_at: DbTimestamp;
}

/** A batch of bonuses on Prolific (prolific module, docs/decisions/0089): one per idempotency key and experiment. */
export interface ProlificBonusBatchesTable {
  id: string;
  experiment_id: string;
  idempotency_key: string;
  /** rule or csv */
  source: string;
  reason: string;
  /** prepared, setting_up, set_up, paying, paid or failed (a pay whose outcome is unknown) */
  status: string;
  total_cents: number;
  study_id: string;
  prolific_bulk_id: string | null;
  prolific_fees: string | null;
  prolific_total: string | null;
  repeats_confirmed: ColumnType<boolean | number, boolean | undefined, boolean>;
  last_error: string | null;
  created_by: string | null;
  paid_by: string | null;
  created_at: DbTimestamp;
  updated_at: DbTimestamp;
  paid_at: DbTimestamp | null;
}

/** One Prolific id's bonus in a batch, in minor units (pence). */
export interface ProlificBonusLinesTable {
  batch_id: string;
  prolific_pid: string;
  amount_cents: number;
}

/** A pilot run with simulated participants (issue 35): its report as JSON text. */
export interface PilotRunsTable {
  id: string;
  experiment_id: string;
  created_by: string | null;
  participants: number;
  target_sample: number;
  seed: number;
  report: string;
  created_at: DbTimestamp;
  finished_at: DbTimestamp;
}

/** A member of an experiment (issue 34, docs/decisions/0087); an experiment with none is lab-wide. */
export interface ExperimentMembersTable {
  experiment_id: string;
  user_id: string;
  /** owner, editor or viewer */
  role: string;
  added_by: string | null;
  created_at: DbTimestamp;
}

/** Follow-up waves (docs/decisions/0091): the experiment follows another (its wave 1). */
export interface ExperimentWavesTable {
  experiment_id: string;
  follows_experiment_id: string;
  set_by: string | null;
  set_at: DbTimestamp;
}

/** The Prolific participant group made from an experiment's completers (docs/decisions/0091). */
export interface ProlificParticipantGroupsTable {
  experiment_id: string;
  /** Prolific's id; null while the group is being made. */
  group_id: string | null;
  name: string;
  workspace_id: string;
  participants: ColumnType<number | string, number | undefined, number>;
  created_at: DbTimestamp;
  updated_at: DbTimestamp;
}

export interface DB {
  llm_providers: LlmProvidersTable;
  llm_turns: LlmTurnsTable;
  users: UsersTable;
  sessions: SessionsTable;
  login_throttles: LoginThrottlesTable;
  login_known_addresses: LoginKnownAddressesTable;
  audit_log: AuditLogTable;
  experiments: ExperimentsTable;
  completion_codes: CompletionCodesTable;
  experiment_quotas: ExperimentQuotasTable;
  preview_links: PreviewLinksTable;
  pilot_runs: PilotRunsTable;
  experiment_members: ExperimentMembersTable;
  experiment_waves: ExperimentWavesTable;
  prolific_participant_groups: ProlificParticipantGroupsTable;
  study_versions: StudyVersionsTable;
  study_logins: StudyLoginsTable;
  assignments: AssignmentsTable;
  allocation_slots: AllocationSlotsTable;
  survey_responses: SurveyResponsesTable;
  /** Browser-timed section records from before the journey module; kept and read, no longer written. */
  section_exposures: SectionExposuresTable;
  section_views: SectionViewsTable;
  journey_events: JourneyEventsTable;
  experiment_prolific_ids: ExperimentProlificIdsTable;
  withdrawn_prolific_ids: WithdrawnProlificIdsTable;
  chat_threads: ChatThreadsTable;
  chat_messages: ChatMessagesTable;
  step_records: StepRecordsTable;
  prolific_settings: ProlificSettingsTable;
  prolific_study_links: ProlificStudyLinksTable;
  prolific_link_join: ProlificLinkJoinTable;
  prolific_submissions: ProlificSubmissionsTable;
  prolific_completions: ProlificCompletionsTable;
  prolific_webhook_events: ProlificWebhookEventsTable;
  prolific_launches: ProlificLaunchesTable;
  prolific_bonus_batches: ProlificBonusBatchesTable;
  prolific_bonus_lines: ProlificBonusLinesTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type ExperimentRow = Selectable<ExperimentsTable>;
export type AssignmentRow = Selectable<AssignmentsTable>;
export type SurveyResponseRow = Selectable<SurveyResponsesTable>;
export type ChatThreadRow = Selectable<ChatThreadsTable>;
export type SectionViewRow = Selectable<SectionViewsTable>;
export type JourneyEventRow = Selectable<JourneyEventsTable>;
export type StepRecordRow = Selectable<StepRecordsTable>;
export type ChatMessageRow = Selectable<ChatMessagesTable>;
export type StudyVersionRow = Selectable<StudyVersionsTable>;
