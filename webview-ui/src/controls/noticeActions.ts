import type { ViewState } from '../../../src/shared/viewState';

export type ActionState = 'live' | 'stale' | 'hidden';

/**
 * Whether a notice's button may still act. A Retry belongs to the turn that failed: once
 * anything but a notice follows it, or while the agent is busy, it is stale. Continue has one
 * home, the composer's button, shown only while the state says continuing is possible — so a
 * notice never carries a second, older Continue. Other actions (set key, compact, open
 * settings…) are commands that stay meaningful.
 */
export function noticeAction(state: Pick<ViewState, 'messages' | 'status'>, index: number): ActionState {
  const m = state.messages[index];
  if (!m || m.kind !== 'notice' || !m.action) return 'hidden';
  switch (m.action.command) {
    case 'continue':
      return 'hidden';
    // A rewind's Undo, like a Retry, belongs to the moment: once anything but a notice follows, it is stale.
    case 'undoRewind':
    case 'retry': {
      if (state.status !== 'idle') return 'stale';
      for (let i = index + 1; i < state.messages.length; i++) if (state.messages[i]!.kind !== 'notice') return 'stale';
      return 'live';
    }
    default:
      return 'live';
  }
}

/** The composer's Continue: present only while the host says the stopped turn can be picked up. */
export function continueLive(state: Pick<ViewState, 'status' | 'canContinue'>): boolean {
  return state.canContinue && state.status === 'idle';
}
