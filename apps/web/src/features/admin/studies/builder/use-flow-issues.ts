import { flowProblems, type FlowDefinition, type StudyIssue } from '@studychat/contracts/web';
import { useMemo, useState } from 'react';
import { useLiveIssues } from '../editor/use-live-issues';

const same = (a: StudyIssue, b: StudyIssue) => a.path === b.path && a.message === b.message;

/** The contracts' zod-free flow checks (the server runs the same), or none when the flow is too broken to walk. */
export function clientIssues(flow: FlowDefinition | null): StudyIssue[] {
  if (!flow) return [];
  try {
    return flowProblems(flow);
  } catch {
    return [];
  }
}

/**
 * The draft's problems: the flow checks at once on every change; the server's whole check (shape: empty texts,
 * patterns, unpriced models) once the text rests; and a refused save's issues while the text is what was sent.
 * `blocking`: Save stays disabled.
 */
export function useFlowIssues(text: string, flow: FlowDefinition | null, refusedIssues: StudyIssue[]) {
  const local = useMemo(() => clientIssues(flow), [flow]);
  const live = useLiveIssues(text, flow !== null);
  const [refused, setRefused] = useState({ issues: refusedIssues, text });
  if (refused.issues !== refusedIssues) setRefused({ issues: refusedIssues, text });
  return useMemo(() => {
    const all = [...local];
    const add = (issue: StudyIssue) => {
      if (!all.some((known) => same(known, issue))) all.push(issue);
    };
    if (live && live.text === text) live.issues.forEach(add);
    if (refused.text === text) refused.issues.forEach(add);
    return all;
  }, [local, live, text, refused]);
}
