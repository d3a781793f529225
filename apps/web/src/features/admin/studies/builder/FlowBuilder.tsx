import type { FlowDefinition, StudyIssue } from '@studychat/contracts/web';
import { useCallback, useEffect, useMemo, useRef, useState, type Dispatch, type SetStateAction } from 'react';
import { Alert } from '../../../../components/Alert';
import { Button } from '../../../../components/Button';
import { Card } from '../../../../components/Card';
import { DraftContext, issueIndex, type DraftApi } from '../editor/draft-context';
import { removeAt, setAt, type Path } from '../editor/draft-path';
import { focusPath } from '../editor/focus-path';
import { isUnder } from '../editor/FormSection';
import { IssueSummary } from '../editor/IssueSummary';
import { formatDefinition, parseDefinition } from '../editor/parse-definition';
import { BuilderContext, type BuilderApi } from './builder-context';
import { isBuildableFlow, withContainers } from './shape';
import { StepList } from './StepList';
import { StudySettingsForms } from './StudySettingsForms';
import { useFlowIssues } from './use-flow-issues';

/** The parts a form shows: an issue there is focused through its form, any other in place (or the JSON). */
const FORM_PREFIXES = ['title', 'id', 'texts', 'conditions', 'pathways', 'steps'];

/**
 * The study builder (issue 31): the flow's settings and its steps as forms, over the same text as the JSON view
 * (one draft: every form edit rewrites the JSON, every JSON edit shows in the forms). The contracts' flow checks
 * run on every change and the server's whole check once the text rests; each issue shows at its field and in the
 * list at the top; Save stays disabled while there is one.
 */
export function FlowBuilder({
  text,
  onText,
  refusedIssues,
  onSave,
  saving,
  message,
}: {
  text: string;
  onText: Dispatch<SetStateAction<string>>;
  /** A refused save's issues (shown while the text is what was sent). */
  refusedIssues: StudyIssue[];
  onSave: () => void;
  saving: boolean;
  message: { tone: 'error' | 'success'; text: string } | null;
}) {
  const parsed = useMemo(() => parseDefinition(text), [text]);
  const flow: FlowDefinition | null = parsed.ok && isBuildableFlow(parsed.value) ? parsed.value : null;
  const issues = useFlowIssues(text, flow, refusedIssues);
  // "Unsaved changes": against the text of the last save that succeeded (a new success message).
  const [savedText, setSavedText] = useState(text);
  const [sentText, setSentText] = useState(text);
  const [seenMessage, setSeenMessage] = useState(message);
  if (message !== seenMessage) {
    setSeenMessage(message);
    if (message?.tone === 'success') setSavedText(sentText);
  }
  const [focusRequest, setFocusRequest] = useState<string | null>(null);
  const clearFocusRequest = useCallback(() => setFocusRequest(null), []);
  const typeStash = useRef<DraftApi['typeStash']>(new Map()).current;
  // Keyboard focus never lands under the sticky save bar: the page scrolls a focused field above it.
  useEffect(() => {
    const root = document.documentElement;
    const before = root.style.scrollPaddingBottom;
    root.style.scrollPaddingBottom = '6rem';
    return () => {
      root.style.scrollPaddingBottom = before;
    };
  }, []);

  const edit = useCallback(
    (path: Path, value: unknown) =>
      onText((current) => {
        const draft = parseDefinition(current);
        if (!draft.ok) return current;
        return formatDefinition(
          value === undefined ? withContainers(removeAt(draft.value, path)) : setAt(draft.value, path, value),
        );
      }),
    [onText],
  );
  const change = useCallback<BuilderApi['change']>(
    (update) =>
      onText((current) => {
        const draft = parseDefinition(current);
        if (!draft.ok || !isBuildableFlow(draft.value)) return current;
        return formatDefinition(update(draft.value));
      }),
    [onText],
  );

  const draftApi = useMemo<DraftApi | null>(
    () =>
      flow && parsed.ok
        ? {
            draft: parsed.value,
            edit,
            issues,
            issuesAt: issueIndex(issues),
            readOnly: false,
            focusRequest,
            clearFocusRequest,
            typeStash,
          }
        : null,
    [flow, parsed, edit, issues, focusRequest, clearFocusRequest, typeStash],
  );
  const builderApi = useMemo<BuilderApi | null>(() => (flow ? { flow, change } : null), [flow, change]);

  const showIssue = (path: string) => {
    if (FORM_PREFIXES.some((prefix) => isUnder(path, prefix))) setFocusRequest(path);
    else focusPath(path);
  };

  return (
    <Card>
      <h2 className="text-lg font-semibold text-slate-900">Study builder</h2>
      <p className="mt-1 text-sm text-slate-600">
        Build the study step by step; the JSON below follows every change (and the builder follows the JSON).
      </p>
      {/* The save bar sticks to the screen's bottom only within this box, which starts below the heading: at the
          top of a short screen it can never cover the heading (a sticky bar rises as far as its box's top). */}
      <div>
        {draftApi && builderApi ? (
          <DraftContext.Provider value={draftApi}>
            <BuilderContext.Provider value={builderApi}>
              <div className="mt-4 space-y-6">
                <div aria-live="polite">
                  <IssueSummary issues={issues} onSelect={showIssue} />
                </div>
                <StudySettingsForms />
                <StepList />
              </div>
            </BuilderContext.Provider>
          </DraftContext.Provider>
        ) : (
          <Alert tone="error" className="mt-4">
            The JSON below is not a flow the builder can show{parsed.ok ? '' : ` (${parsed.error})`}. Fix it there and
            the builder comes back.
          </Alert>
        )}
        <div className="sticky bottom-0 z-10 -mx-4 mt-4 flex flex-wrap items-center gap-3 border-t border-slate-200 bg-white/95 px-4 py-3 sm:-mx-6 sm:px-6">
          <Button
            disabled={!flow || issues.length > 0 || saving}
            onClick={() => {
              setSentText(text);
              onSave();
            }}
          >
            {saving ? 'Saving…' : 'Save'}
          </Button>
          <span className="text-sm text-slate-700" aria-live="polite">
            {issues.length > 0 ? (
              <span className="font-semibold text-red-700">
                {issues.length} problem{issues.length === 1 ? '' : 's'}, listed above: fix them to save
              </span>
            ) : text !== savedText ? (
              'Unsaved changes'
            ) : message?.tone === 'success' && seenMessage === message ? (
              message.text
            ) : (
              'No unsaved changes'
            )}
          </span>
        </div>
      </div>
      {message?.tone === 'error' && (
        <Alert tone="error" className="mt-3">
          {message.text}
        </Alert>
      )}
    </Card>
  );
}
