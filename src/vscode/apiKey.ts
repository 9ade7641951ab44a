import * as vscode from 'vscode';

const SECRET_KEY = 'threadline.anthropicApiKey';

/**
 * The key lives in SecretStorage only: never in settings, never in logs. The extension
 * host's ANTHROPIC_API_KEY is a fallback for people who already export it for other tools.
 */
export class ApiKeyStore {
  private readonly changed = new vscode.EventEmitter<void>();
  /** Once per change of the key in use, however many ways VS Code reports it. */
  readonly onDidChange = this.changed.event;
  /** The key last announced; `null` before the first change. */
  private announced: string | undefined | null = null;

  constructor(private readonly secrets: vscode.SecretStorage) {
    secrets.onDidChange((e) => {
      if (e.key === SECRET_KEY) void this.announce();
    });
  }

  /**
   * Storing a key both returns here and fires the secret store's own change event: announcing
   * each one put two "API key saved" notices in the chat. Only a key that differs is news.
   */
  private async announce(): Promise<void> {
    const now = await this.get();
    if (now === this.announced) return;
    this.announced = now;
    this.changed.fire();
  }

  async get(): Promise<string | undefined> {
    const stored = await this.secrets.get(SECRET_KEY);
    return stored || process.env.ANTHROPIC_API_KEY || undefined;
  }

  async promptAndStore(): Promise<boolean> {
    const value = await vscode.window.showInputBox({
      title: 'Threadline: Set API Key',
      prompt: 'Your Anthropic API key. It is kept in VS Code secret storage on this machine.',
      password: true,
      ignoreFocusOut: true,
      placeHolder: 'sk-ant-…',
      validateInput: (v) => (v.trim().length === 0 ? 'Enter a key' : /\s/.test(v.trim()) ? 'A key has no spaces' : undefined),
    });
    if (value === undefined) return false;
    await this.secrets.store(SECRET_KEY, value.trim());
    await this.announce();
    return true;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
