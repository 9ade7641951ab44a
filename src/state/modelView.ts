import type { ModelInfo } from '../api/models';
import type { ThinkingSetting } from '../api/thinking';
import type { ModelView } from '../shared/viewState';

/** What the panel and the status bar show of a resolved model. */
export function modelViewOf(model: ModelInfo, thinking: ThinkingSetting): ModelView {
  return {
    id: model.id,
    requested: model.requested,
    displayName: model.displayName,
    contextWindow: model.contextWindow,
    lifecycle: model.lifecycle,
    ...(model.retiresAt ? { retiresAt: model.retiresAt } : {}),
    thinking: thinking !== 'off',
  };
}

/** Same content: the store keeps the old object, so a republish sends no patch. */
export function sameModelView(a: ModelView, b: ModelView): boolean {
  return a.id === b.id && a.requested === b.requested && a.displayName === b.displayName && a.contextWindow === b.contextWindow && a.lifecycle === b.lifecycle && a.retiresAt === b.retiresAt && a.thinking === b.thinking;
}
