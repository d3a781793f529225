import { sql, type RawBuilder, type SqlBool } from 'kysely';

// Which participants and audit entries a staff account may read (issue 34, docs/decisions/0087): the admin area
// reaches participants without naming an experiment in the path, so the route check cannot scope it. These
// conditions are applied by the admin area's and the audit log's queries, given the experiments the caller may not
// see (members.service hiddenExperimentIds). With no hidden experiment the callers do not apply them at all.

/** The tables that tie a participant to an experiment: a login made for it, a survey answer, an assignment, a chat. */
const TIES = ['study_logins', 'survey_responses', 'assignments', 'chat_threads'] as const;

/**
 * True when the user in `userColumn` (a qualified column such as `users.id`) is a participant all of whose
 * experiments are hidden: tied to at least one experiment and to none the caller may see. Staff accounts and
 * participants tied to no experiment stay visible (they show the caller nothing of a hidden experiment).
 */
export function participantHidden(hidden: readonly string[], userColumn: string): RawBuilder<SqlBool> {
  const user = sql.ref(userColumn);
  const tie = (table: string, where: RawBuilder<unknown> = sql`1 = 1`) =>
    sql`exists (select 1 from ${sql.table(table)} as tie where tie.user_id = ${user} and ${where})`;
  const notHidden = sql`tie.experiment_id not in (${sql.join(hidden.length > 0 ? [...hidden] : [''])})`;
  return sql<SqlBool>`(exists (select 1 from users as pu where pu.id = ${user} and pu.role = 'participant')
    and (${sql.join(
      TIES.map((t) => tie(t)),
      sql` or `,
    )})
    and not (${sql.join(
      TIES.map((t) => tie(t, notHidden)),
      sql` or `,
    )}))`;
}

/** True when an experiment id (a qualified column) is one of the hidden experiments. */
export function experimentHidden(hidden: readonly string[], experimentColumn: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`${sql.ref(experimentColumn)} in (${sql.join(hidden.length > 0 ? [...hidden] : [''])})`;
}
