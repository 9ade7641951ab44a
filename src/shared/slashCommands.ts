// The commands the composer understands, for the `/` menu and for the host that runs them. One
// list, so the menu never offers what the host does not do (or hides what it does).
import type { ActionCommand } from './viewState';

export interface SlashCommand {
  name: string;
  /** How its argument is written in the menu (`[focus]`), if it takes one. */
  args?: string;
  /** One line for the menu. */
  description: string;
  /** A command with no argument that runs a palette command; the others are parsed by the host. */
  runs?: ActionCommand;
}

export const SLASH_COMMANDS: readonly SlashCommand[] = [
  { name: 'compact', args: '[focus]', description: 'Summarise the conversation to free context; words after it say what to keep' },
  { name: 'context', description: 'What the next request holds and how full the window is', runs: 'showContext' },
  { name: 'model', args: '[name]', description: 'Pick the model, or switch at once: /model opus' },
  { name: 'think', args: '[on|off]', description: 'Thinking on or off (alone, it toggles)' },
  { name: 'new', description: 'Start a new session', runs: 'newSession' },
  { name: 'resume', description: 'Resume an earlier session, or a Claude Code one', runs: 'resumeSession' },
  { name: 'memory', description: 'What Threadline remembers across sessions', runs: 'openMemory' },
];

/**
 * The commands the menu offers for a draft: while it is a `/` and the start of a command's name,
 * nothing else (once a space or a second line follows, the command is chosen and the menu goes).
 */
export function slashSuggestions(draft: string): SlashCommand[] {
  const m = /^\/([a-z]*)$/i.exec(draft);
  if (!m) return [];
  const typed = m[1]!.toLowerCase();
  return SLASH_COMMANDS.filter((c) => c.name.startsWith(typed));
}

/** The palette command a message runs instead of going to the model (`/new`, `/context`…), if any. */
export function slashAction(text: string): ActionCommand | undefined {
  const m = /^\/([a-z]+)$/i.exec(text.trim());
  return m ? SLASH_COMMANDS.find((c) => c.name === m[1]!.toLowerCase())?.runs : undefined;
}
