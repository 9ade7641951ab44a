// The README's two commands, read from the README itself (the README test runs what it says).

/** The two commands of the README's first code block after "## Two commands". */
export function readmeCommands(markdown) {
  const section = markdown.split(/^## Two commands\s*$/m)[1];
  const block = section && /```(?:sh|bash)?\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error('README.md has no code block under "## Two commands"');
  const lines = block.split('\n').map((l) => l.replace(/\s+#.*$/, '').trim()).filter(Boolean);
  const start = lines.find((l) => /\bnpm start\b/.test(l));
  const test = lines.find((l) => /\bnpm test\b/.test(l));
  if (!start || !test) throw new Error(`README.md's two commands should start and test; found: ${lines.join(' | ')}`);
  return { start, test };
}
