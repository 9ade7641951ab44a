import * as vscode from 'vscode';
import type { FollowingCatalog } from '../api/followingCatalog';
import type { Agent } from '../agent/agent';
import type { ModelActions } from '../chat/chatController';
import { modelChoices, type ModelChoice } from '../chat/modelChoices';
import { runModelCommand } from '../chat/modelCommands';
import { describeCompactFirst, ModelSwitcher, type CompactChoice, type SwitchPlan } from '../chat/modelSwitch';
import type { HostSettings } from '../ports/host';
import type { Store } from '../shared/store';
import type { AppState } from '../state/appState';

type Item = vscode.QuickPickItem & { value?: string };

function toItems(choices: readonly ModelChoice[]): Item[] {
  const items: Item[] = [];
  let group: ModelChoice['group'] | undefined;
  for (const c of choices) {
    if (c.group !== group) {
      group = c.group;
      items.push({ label: group === 'alias' ? 'Newest of a line' : 'Models', kind: vscode.QuickPickItemKind.Separator });
    }
    items.push({ label: `${c.current ? '$(check) ' : ''}${c.label}`, description: c.description, ...(c.detail ? { detail: c.detail } : {}), value: c.value, picked: c.current });
  }
  return items;
}

/** The Select Model quick pick; resolves the alias or id chosen, undefined when dismissed. */
async function pickModel(catalog: FollowingCatalog, store: Store<AppState>): Promise<string | undefined> {
  // A list more than a day old is fetched again in the background; what is known shows at once.
  void catalog.refresh();
  const s = store.getState();
  const items = toItems(modelChoices(catalog.snapshot().models, s.modelView, s.settings.contextWindow));
  const picked = await vscode.window.showQuickPick(items, {
    title: 'Threadline: Select Model',
    placeHolder: `In use: ${s.modelView.displayName} (${s.modelView.id}). Type to filter by name or id.`,
    matchOnDescription: true,
    matchOnDetail: true,
  });
  return picked?.value;
}

async function confirmCompact(plan: Extract<SwitchPlan, { kind: 'compactFirst' }>): Promise<CompactChoice> {
  const compact = 'Compact, then Switch';
  const anyway = 'Switch Anyway';
  const answer = await vscode.window.showWarningMessage(describeCompactFirst(plan), { modal: true }, compact, anyway);
  return answer === compact ? 'compact' : answer === anyway ? 'switch' : 'cancel';
}

/**
 * The model picker's VS Code face: the Select Model command, and what the panel needs (the
 * composer's `/model` and `/think`, a notice's one-click switch).
 */
export function registerModelUi(context: vscode.ExtensionContext, deps: { store: Store<AppState>; catalog: FollowingCatalog; agent(): Agent; compact(): Promise<boolean>; settings: Pick<HostSettings, 'save'> }): ModelActions {
  const { store, catalog } = deps;
  const switcher = new ModelSwitcher({ store, models: catalog, agent: deps.agent, compact: deps.compact, confirmCompact, persist: (key, value) => deps.settings.save(key, value) });
  const select = async () => {
    const choice = await pickModel(catalog, store);
    if (choice !== undefined) await switcher.switchTo(choice);
  };
  context.subscriptions.push(vscode.commands.registerCommand('threadline.selectModel', select));
  return {
    slashCommand: (text: string) => runModelCommand(text, { store, switcher, pick: select }),
    switchModel: async (model: string) => {
      await switcher.switchTo(model);
    },
  };
}
