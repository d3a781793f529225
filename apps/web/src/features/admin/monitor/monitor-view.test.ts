import type { MonitorParticipant, Pathway } from '@studychat/contracts/web';
import { categoryOf } from '../participant-status';
import { describe, expect, it } from 'vitest';
import { duration, filterParticipants, stepText } from './monitor-view';

function participant(login: string, pid: string | null, status: MonitorParticipant['status']): MonitorParticipant {
  return {
    assignment_id: login,
    user_id: login,
    login,
    prolific_pid: pid,
    prolific_status: null,
    condition: null,
    status,
    step: 'sections',
    section: 1,
    step_since: '2026-11-20T10:00:00.000Z',
    seconds_on_step: 0,
    last_seen: '2026-11-20T10:00:00.000Z',
    stale: status === 'stale',
    pathway: null,
    chat_rounds: 0,
    chat_closed_by: null,
    tokens: 0,
    cost_usd: 0,
    is_test: false,
  };
}

describe('monitor view helpers', () => {
  const rows = [
    participant('alpha@study.test', 'PID-AAA', 'in_progress'),
    participant('beta@study.test', null, 'stale'),
    participant('gamma@study.test', 'pid-ccc', 'completed'),
  ];

  it('searches Prolific id or login, any case, and filters by status', () => {
    expect(filterParticipants(rows, 'aaa', 'all').map((r) => r.login)).toEqual(['alpha@study.test']);
    expect(filterParticipants(rows, 'BETA', 'all')).toHaveLength(1);
    expect(filterParticipants(rows, 'PID', 'all')).toHaveLength(2);
    expect(filterParticipants(rows, '', 'stale').map((r) => r.login)).toEqual(['beta@study.test']);
    expect(filterParticipants(rows, 'gamma', 'stale')).toEqual([]);
  });

  it('puts each participant in one category, the same in the list, the filter and the cards', () => {
    const at = (status: MonitorParticipant['status'], condition: string | null, pathway: Pathway | null) => ({
      ...participant('x@study.test', null, status),
      condition,
      pathway,
    });
    // At the pre-survey: not yet assigned, never "In progress" in one place and "Not yet assigned" in another.
    expect(categoryOf(at('in_progress', null, null))).toBe('not_yet_assigned');
    expect(categoryOf(at('in_progress', 'mmr', null))).toBe('in_progress');
    // Screened out whether or not the code was shown; completed only on the full study.
    expect(categoryOf(at('screened_out', null, 'ceiling'))).toBe('screened_out');
    expect(categoryOf(at('completed', null, 'confirm'))).toBe('screened_out');
    expect(categoryOf(at('completed', 'mmr', 'complete'))).toBe('completed');
    expect(categoryOf(at('stale', null, null))).toBe('stale');
    const list = [at('in_progress', null, null), at('completed', null, 'confirm'), at('completed', 'mmr', 'complete')];
    expect(filterParticipants(list, '', 'screened_out')).toHaveLength(1);
    expect(filterParticipants(list, '', 'not_yet_assigned')).toHaveLength(1);
    expect(filterParticipants(list, '', 'completed')).toHaveLength(1);
  });

  it('names the step and the time on it', () => {
    expect(stepText(rows[0] as MonitorParticipant)).toBe('Sections (2)');
    expect(duration(42)).toBe('42 s');
    expect(duration(75)).toBe('1 min 15 s');
    expect(duration(3700)).toBe('1 h 1 min');
  });
});
