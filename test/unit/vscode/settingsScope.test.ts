import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { USER_ONLY_SETTINGS } from '../../../src/vscode/userOnlySettings';

const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '../../../package.json'), 'utf8')) as {
  capabilities: { untrustedWorkspaces: { supported: string; restrictedConfigurations?: string[] } };
  contributes: { configuration: { properties: Record<string, { scope?: string }> } };
};
const props = pkg.contributes.configuration.properties;

describe('settings a workspace may not set', () => {
  it('each user-only setting is machine or application scoped and restricted in untrusted workspaces', () => {
    const restricted = pkg.capabilities.untrustedWorkspaces.restrictedConfigurations ?? [];
    for (const key of USER_ONLY_SETTINGS) {
      const full = `threadline.${key}`;
      assert.ok(props[full], `${full} is declared`);
      assert.ok(props[full]!.scope === 'machine' || props[full]!.scope === 'application', `${full} has scope machine or application, not ${props[full]!.scope}`);
      assert.ok(restricted.includes(full), `${full} is in restrictedConfigurations`);
    }
  });

  it('a setting about where data goes or what runs unasked cannot be added without joining the list', () => {
    const risky = /apiBaseUrl|baseUrl|permission|allow|deny|director|memory|shell|env|approve|command|hook/i;
    const listed = new Set(USER_ONLY_SETTINGS.map((k) => `threadline.${k}`));
    for (const key of Object.keys(props)) {
      if (key === 'threadline.sessionMemory') continue; // notes of the session itself, kept in Threadline's own storage
      if (risky.test(key)) assert.ok(listed.has(key), `${key} looks like it decides where data goes or what runs: add it to USER_ONLY_SETTINGS`);
    }
  });
});
