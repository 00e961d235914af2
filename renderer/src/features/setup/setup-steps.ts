import type { SetupState } from '../../../../shared/setup';

export type StepId = 'ollama' | 'models' | 'check' | 'notes';

export const STEPS: ReadonlyArray<{ id: StepId; label: string; hint: string }> = [
  { id: 'ollama', label: 'Ollama', hint: 'Install, start' },
  { id: 'models', label: 'Models', hint: 'Two downloads' },
  { id: 'check', label: 'Check', hint: 'A test answer' },
  { id: 'notes', label: 'Your notes', hint: 'Import a folder' },
];

/**
 * How far a person has gone on their own: past a successful check ('checked'), or on to their notes
 * without Ollama ('keyword-only'). Everything else is read from setupStatus.
 */
export type Proceeded = 'checked' | 'keyword-only' | null;

/** The step to show: the first thing missing, the check once both models are there, then the notes. */
export function currentStep(state: SetupState, proceeded: Proceeded): StepId {
  if (proceeded !== null) return 'notes';
  if (state === 'unreachable') return 'ollama';
  if (state !== 'ready') return 'models';
  return 'check';
}

/** Which steps earn their tick: read from the state, except the check, which only a passing check ticks. */
export function doneSteps(state: SetupState, verified: boolean, documents: number): Set<StepId> {
  const done = new Set<StepId>();
  if (state !== 'unreachable') done.add('ollama');
  if (state === 'ready') done.add('models');
  if (state === 'ready' && verified) done.add('check');
  if (documents > 0) done.add('notes');
  return done;
}
