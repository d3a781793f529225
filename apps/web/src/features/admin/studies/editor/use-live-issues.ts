import { endpoints, type StudyIssue } from '@studychat/contracts/web';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api } from '../../../../lib/api';
import { parseDefinition } from './parse-definition';

/** How long the draft must rest before it is checked (a check per keystroke would be a request per keystroke). */
const REST_MS = 500;

/**
 * The server's problems with the draft as it is now (validateStudyDefinition, the same check as a save), asked
 * once the text has rested; the last answer stays while the next is on its way. Null until the first answer,
 * and while the text is not a JSON object (the JSON view says why).
 */
export function useLiveIssues(text: string, enabled: boolean): { text: string; issues: StudyIssue[] } | null {
  const [rested, setRested] = useState(text);
  useEffect(() => {
    const timer = window.setTimeout(() => setRested(text), REST_MS);
    return () => window.clearTimeout(timer);
  }, [text]);
  const parsed = parseDefinition(rested);
  const check = useQuery({
    queryKey: ['admin', 'study-check', rested],
    enabled: enabled && parsed.ok,
    staleTime: Infinity,
    gcTime: 0,
    placeholderData: keepPreviousData,
    queryFn: async ({ signal }) => {
      const reply = await api(endpoints.studies.check, { body: { definition: parsed.ok ? parsed.value : {} }, signal });
      return { text: rested, issues: reply.issues };
    },
  });
  return enabled && parsed.ok && check.data ? check.data : null;
}
