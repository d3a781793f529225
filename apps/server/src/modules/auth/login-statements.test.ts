import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { createUser } from '../users/users.service.js';

// Statements per login (issue 16, decision 0069): the account with its known address in one read, each counter
// read right before its compare-and-set, then the confirmation, the session and the last login together: one
// statement on PostgreSQL, in turn on SQLite. Before: 11 on both. The address's ceiling across accounts (decision
// 0074) adds one counting statement, and its unit given back, to a login from an address the account does not know.
describe.each(TEST_DIALECTS)('login statements on %s', (dialect) => {
  const t = useTestApp(dialect);

  async function loginStatements(email: string, password: string): Promise<string[]> {
    const seen: string[] = [];
    t().database.queries.onQuery = (statement) => seen.push(statement.replace(/\s+/g, ' ').trim());
    try {
      const res = await t().app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
      expect(res.statusCode, res.body).toBe(200);
    } finally {
      t().database.queries.onQuery = undefined;
    }
    return seen.filter(
      (s) => !/^delete from "login_(throttles|known_addresses)" where "(updated_at|last_login_at)" </.test(s),
    );
  }

  it('a first login from an address: the account, then each counter read and set, then the writes together', async () => {
    const email = `login-${randomUUID().slice(0, 8)}@study.test`;
    const password = `pw-${randomUUID()}`;
    await createUser(t().deps, { email, password, isAdmin: false });
    const first = await loginStatements(email, password);
    expect(first[0]).toMatch(/^select "u"\.\*, exists \(select "k"\."user_id" from "login_known_addresses"/);
    // The account's counter, then the pair's: each read right before its compare-and-set; between them the
    // address's counted in one statement.
    const counters = first.slice(1, 6).map((q) => q.split(' ')[0]);
    expect(counters).toEqual(['select', 'insert', 'insert', 'select', 'insert']);
    expect(first[3]).toMatch(/^insert into "login_throttles" .* on conflict \("key"\) do update set .* returning/);
    expect(first.filter((s) => /^select/.test(s))).toHaveLength(3);
    if (dialect === 'postgres') {
      // The pair cleared, the account's and the address's units given back, the address remembered, the session,
      // the last login.
      expect(first).toHaveLength(7);
      expect(first[6]).toMatch(
        /^with w0 as \(delete from "login_throttles".*w1 as \(update "login_throttles".*w2 as \(update "login_throttles".*w3 as \(insert into "login_known_addresses".*w4 as \(insert into "sessions".*w5 as \(update "users" set "last_login_at"/,
      );
    } else {
      // The same six writes in one transaction (db/atomic-writes.ts).
      expect(first).toHaveLength(14);
      expect(first[6]).toMatch(/^begin/);
      expect(first[13]).toMatch(/^commit/);
    }

    // From the same address again: known, so neither ceiling is counted (no account or address counter).
    const again = await loginStatements(email, password);
    expect(again.filter((s) => /^select/.test(s))).toHaveLength(2);
    expect(again[1]).toMatch(/^select \* from "login_throttles" where "key" = (\$1|\?)$/);
    expect(again).toHaveLength(dialect === 'postgres' ? 4 : 9);
  });
});
