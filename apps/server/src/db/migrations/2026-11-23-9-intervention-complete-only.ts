import { sql, type Kysely } from 'kysely';

// Frozen in time (DESIGN.md convention 8). "Intervention completed" means the participant finished the
// intervention (pathway complete). It was also set for the confirm and ceiling exits, who were screened out
// before the intervention; clear it there. completed_at and completion_pathway still record those exits.

type Db = Kysely<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export async function up(db: Db): Promise<void> {
  await sql`
    update assignments set intervention_completed_timestamp = null
    where intervention_completed_timestamp is not null
      and (completion_pathway is null or completion_pathway <> 'complete')
  `.execute(db);
}

export async function down(): Promise<void> {
  // The cleared values were wrong; there is nothing to restore.
}
