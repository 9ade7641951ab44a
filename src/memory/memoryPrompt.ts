import { MEMORY_TYPES } from './memdir';

/**
 * The memory section of the system prompt. Built once per session: it sits in the cached
 * prefix, and rebuilding it when a memory is saved would cost the whole cache.
 */
export function buildMemorySection(dir: string, index: { text: string; truncated: boolean } | undefined): string {
  const lines = [
    '# Memory',
    `You have a persistent memory in \`${dir}\`. It carries what you learn about this user and project into future conversations. Use it sparingly and well.`,
    '',
    '## Kinds of memory',
    `Every memory is one markdown file with frontmatter fields \`name\` (lowercase, digits, - or _), \`description\` (one line) and \`type\`, one of ${MEMORY_TYPES.map((t) => `\`${t}\``).join(', ')}:`,
    '- user: who the user is: role, goals, expertise, how they like to work.',
    '- feedback: how to approach work here: corrections ("don\'t do X") and approaches the user confirmed. Record why, and how to apply it.',
    '- project: ongoing work, decisions and incidents that the code and git history do not show.',
    '- reference: where information lives outside the code (trackers, dashboards, documents).',
    '',
    '## What not to save',
    '- Anything the code, the file layout or git history already tells (patterns, architecture, who changed what).',
    '- Debugging recipes: the fix is in the code and the commit explains it.',
    '- Anything already in instruction files (CLAUDE.md, AGENTS.md).',
    '- The state of the task in hand: that belongs to this conversation, not to memory.',
    '',
    '## How to save',
    '1. Write the memory to its own file in the memory folder (Write tool), e.g. `feedback_terse.md`.',
    `2. The index \`MEMORY.md\` lists every memory in one line; it is kept up to date for you from the files.`,
    'Update an existing memory rather than adding a near-duplicate. Delete memories that turn out wrong.',
  ];
  if (index && hasEntries(index.text)) {
    lines.push('', '## Current index', '', index.text.trim());
  } else {
    lines.push('', 'There are no memories yet.');
  }
  return lines.join('\n');
}

/**
 * An index with only its heading (an extraction that saved nothing still rebuilds it) reads as
 * no memories: otherwise the next session's system prompt differs from the cached one.
 */
function hasEntries(text: string): boolean {
  return text.split('\n').some((line) => line.trim() !== '' && !/^#\s/.test(line.trim()));
}

/**
 * What a background extraction is told beyond the system prompt's memory section (which it
 * shares with the main loop, byte for byte): the folder and its index as they are now, since
 * the section shows the index as it was when the session started.
 */
export function memoryIndexNow(dir: string, index: { text: string; truncated: boolean } | undefined): string {
  return index && hasEntries(index.text) ? `The memory folder is \`${dir}\`. Its index now:\n\n${index.text.trim()}` : `The memory folder is \`${dir}\`. It holds no memories yet.`;
}
