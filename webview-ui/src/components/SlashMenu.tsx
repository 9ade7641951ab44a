import type { SlashCommand } from '../../../src/shared/slashCommands';

/**
 * The `/` menu above the composer: each command with its line. The composer keeps the focus and
 * the keys (arrows move, Tab or Enter takes the command, Esc closes); a click takes it too.
 */
export function SlashMenu({ commands, active, onPick }: { commands: readonly SlashCommand[]; active: number; onPick(c: SlashCommand): void }) {
  return (
    <ul className="slash-menu" role="listbox" id="slash-menu" aria-label="Commands" data-testid="slash-menu">
      {commands.map((c, i) => (
        <li
          key={c.name}
          id={`slash-${c.name}`}
          role="option"
          aria-selected={i === active}
          className={i === active ? 'active' : ''}
          data-testid="slash-command"
          data-name={c.name}
          // Before the textarea's blur: the click must not take the focus away from the box.
          onMouseDown={(e) => (e.preventDefault(), onPick(c))}
        >
          <span className="slash-name">
            /{c.name}
            {c.args && <span className="slash-args"> {c.args}</span>}
          </span>
          <span className="slash-description">{c.description}</span>
        </li>
      ))}
    </ul>
  );
}
