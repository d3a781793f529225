import type { FlowModel, FlowStep } from '@studychat/contracts/web';

/** A model setting in words: its model (or the deployment's) and its fallback model, if any (docs/decisions/0076). */
export function modelText(model: FlowModel | undefined): string {
  const name = model?.provider === 'scripted' ? 'scripted' : (model?.model ?? "the deployment's model");
  return model?.fallbackModel ? `${name} (fallback: ${model.fallbackModel})` : name;
}

/** What a step calls, for the version view's steps table: each chat arm's model, an AI text's; '' for the others. */
export function stepModels(step: FlowStep): string {
  if (step.type === 'chat')
    return Object.entries(step.arms)
      .map(([condition, arm]) => `${condition}: ${modelText(arm.model)}`)
      .join('; ');
  if (step.type === 'ai_text') return modelText(step.model);
  return '';
}
