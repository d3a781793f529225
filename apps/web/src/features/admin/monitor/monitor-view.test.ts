import type { MonitorParticipant } from '@studychat/contracts/web';
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

  it('names the step and the time on it', () => {
    expect(stepText(rows[0] as MonitorParticipant)).toBe('Sections (2)');
    expect(duration(42)).toBe('42 s');
    expect(duration(75)).toBe('1 min 15 s');
    expect(duration(3700)).toBe('1 h 1 min');
  });
});
