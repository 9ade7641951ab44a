export type NoticeLevel = 'info' | 'warning' | 'error';

/** The settings the host keeps that the core reads at the moment it needs them. */
export interface HostSettings {
  /** The most model turns one prompt may take. */
  maxTurns(): number;
  /** Keeps a choice made in the session (the model, thinking) where the host keeps its settings. */
  save(key: 'model' | 'thinking', value: string): Promise<void>;
}

/**
 * What the core needs from the program it runs in, in one place: VS Code provides it from its
 * own stores and dialogs, the CLI from its arguments, environment and stderr. The core reaches
 * its host only through this (and the logger), so a third host is one more implementation.
 */
export interface Host {
  /**
   * Whether the workspace may steer the agent: its instruction files, its project settings, its
   * git configuration (which can make git run programs).
   */
  isTrusted(): boolean;
  /** The Anthropic API key; undefined when none is set. */
  apiKey(): Promise<string | undefined>;
  /** Where requests go; empty: the SDK's default (which reads ANTHROPIC_BASE_URL). */
  baseUrl(): string;
  readonly settings: HostSettings;
  /** Tells the user something outside the conversation (a notification, a line on stderr). */
  notify(level: NoticeLevel, text: string): void;
  /**
   * An instruction file includes a file outside its project: may it be read? Asked once per file
   * and session; a host that cannot ask answers false.
   */
  approveExternal(path: string, from: string): Promise<boolean>;
}
