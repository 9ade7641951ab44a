// No vscode import: the unit tests check this list against package.json.

/**
 * THE RULE: a setting that decides where the key or the user's data goes, or what runs without
 * asking, is read only from the user's own settings, never from a workspace or folder
 * (`.vscode/settings.json` ships with a cloned repository). Each is also declared with
 * `"scope": "application"` (not "machine": a remote window such as code-server reads those from
 * its remote settings only) and listed in
 * `capabilities.untrustedWorkspaces.restrictedConfigurations` in package.json (a unit test checks
 * that the lists agree). A new setting of that kind
 * joins this list and is read through userValue() in settings.ts.
 */
export const USER_ONLY_SETTINGS = [
  'apiBaseUrl',
  'permissions.allow',
  'permissions.ask',
  'permissions.deny',
  'additionalDirectories',
  'memoryDirectory',
  'autoMemory',
  // Answers permission requests from outside the panel: a repository must not turn it on.
  'permissionNotification',
  // Starts programs: a repository defines its servers in .mcp.json, where trust and approval apply.
  'mcpServers',
] as const;

