import { isFlowDefinition, type FlowDefinition, type StudyDefinition, type StudyIssue } from '@studychat/contracts';
import type { LlmProvider } from '../../llm/chat-model.js';

const KEYS: Record<LlmProvider, string> = {
  anthropic: 'ANTHROPIC_API_KEY',
  openai: 'OPENAI_API_KEY (or OPENAI_BASE_URL)',
  scripted: 'LLM_PROVIDER=scripted',
};

/**
 * The chat arms and AI text steps that name a provider this deployment cannot call (no key): refused when the
 * version is pinned, so no participant reaches a step whose model cannot answer. A study in the built-in shape
 * names no provider (its conditions run on the deployment's).
 */
export function unavailableProviders(
  study: StudyDefinition | FlowDefinition,
  available: readonly LlmProvider[],
): StudyIssue[] {
  if (!isFlowDefinition(study)) return [];
  const issues: StudyIssue[] = [];
  const check = (path: string, provider: LlmProvider | undefined) => {
    if (provider === undefined || available.includes(provider)) return;
    issues.push({
      path,
      message: `this deployment cannot call the provider "${provider}": set ${KEYS[provider]} on the server, or choose one of ${available.join(', ')}`,
    });
  };
  study.steps.forEach((step, index) => {
    if (step.type === 'chat') {
      for (const [condition, arm] of Object.entries(step.arms))
        check(`steps.${index}.arms.${condition}.model.provider`, arm.model?.provider);
    }
    if (step.type === 'ai_text') check(`steps.${index}.model.provider`, step.model?.provider);
  });
  return issues;
}
