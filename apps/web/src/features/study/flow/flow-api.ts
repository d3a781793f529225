import { endpoints, type FlowView, type GeneratedTextReply, type SubmitFlowStepBody } from '@studychat/contracts/web';
import { api } from '../../../lib/api';

// The calls of a study written as a flow (issue 30): the server says where the participant is; each write answers
// with where they are next.

export function readFlowView(experimentId: string, signal?: AbortSignal): Promise<FlowView> {
  return api(endpoints.flow.view, { params: { experimentId }, signal });
}

export function submitFlowStep(experimentId: string, stepId: string, body: SubmitFlowStepBody = {}): Promise<FlowView> {
  return api(endpoints.flow.submit, { params: { experimentId, stepId }, body });
}

export function generateFlowText(experimentId: string, stepId: string): Promise<GeneratedTextReply> {
  return api(endpoints.flow.generate, { params: { experimentId, stepId } });
}
