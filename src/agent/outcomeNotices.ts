import { contextOverflow } from '../api/errors';
import type { Store } from '../shared/store';
import { addNotice } from '../state/actions';
import type { AppState } from '../state/appState';
import type { LoopResult } from './queryLoop';

/** What the user is told when a turn ends other than by the model finishing, and what to do next. */
export function reportOutcome(store: Store<AppState>, result: LoopResult, maxTurns: number): void {
  switch (result.outcome) {
    case 'aborted':
      addNotice(store, 'info', 'Stopped. Press Continue to pick up where it left off, or send a new message.', { label: 'Continue', command: 'continue' });
      break;
    case 'max_turns':
      addNotice(store, 'warning', `Reached the limit of ${maxTurns} model turns for one answer.`, { label: 'Continue', command: 'continue' });
      break;
    case 'error': {
      const err = result.error;
      if (err?.kind === 'auth') addNotice(store, 'error', err.message, { label: 'Set API Key', command: 'setApiKey' });
      else if (err?.kind === 'prompt_too_long' || (err && contextOverflow(err))) addNotice(store, 'error', `The conversation is too long for the model: ${err.message}`, { label: 'Compact', command: 'compact' });
      else addNotice(store, 'error', `The request failed: ${err?.message ?? 'unknown error'}`, { label: 'Retry', command: 'retry' });
      break;
    }
    case 'blocked':
      addNotice(store, 'error', result.blocked ?? 'The conversation is over the context limit; nothing was sent.', { label: 'Compact', command: 'compact' });
      break;
    case 'end_turn':
      break;
  }
}
